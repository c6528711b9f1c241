// Running a recipe from the page (decision 083): one image is sent with the run (POST
// /api/recipes/:id/run, multipart); several start a batch run and go one at a time to POST
// /api/recipe-runs/:id/images (a 429 waits its Retry-After and sends again). The run is then read
// every second until no image is running: each image's steps, its result or why it stopped.
import { useCallback, useEffect, useRef, useState } from 'react';
import { RECIPE_PATHS, type Recipe, type RecipeRun } from '../../../contract/recipes';
import { getJson, postJson } from '../../lib/api';

export type RecipeRunState =
  | { phase: 'idle' }
  | { phase: 'sending'; sent: number; total: number; run: RecipeRun | null }
  | { phase: 'running' | 'ended'; run: RecipeRun }
  | { phase: 'refused'; error: string };

const POLL_MS = 1000;
/** Times a batch image refused with 429 is sent again. */
const RETRIES = 5;
const GENERIC = 'The run could not be started. Try again in a moment.';

const api = (path: string) => `/api${path}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function postForm(path: string, form: FormData) {
  const response = await fetch(path, {
    method: 'POST',
    body: form,
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
  });
  const data = (await response.json().catch(() => null)) as
    | (RecipeRun & { error?: string; retryAfterSeconds?: number })
    | null;
  return { status: response.status, ok: response.ok, data };
}

const errorOf = (data: unknown) =>
  data && typeof data === 'object' && typeof (data as { error?: unknown }).error === 'string'
    ? (data as { error: string }).error
    : GENERIC;

export function useRecipeRun(onEnded: () => void) {
  const [state, setState] = useState<RecipeRunState>({ phase: 'idle' });
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const follow = useCallback(
    async (runId: string) => {
      while (live.current) {
        const read = await getJson<RecipeRun>(api(RECIPE_PATHS.runState(runId))).catch(() => null);
        const run = read?.ok ? read.data : null;
        if (run && live.current) {
          // Every image was sent before this: none running is the end (an image refused when sent is failed).
          const ended = run.counts.running === 0;
          setState({ phase: ended ? 'ended' : 'running', run });
          if (ended) {
            onEnded();
            return;
          }
        }
        await sleep(POLL_MS);
      }
    },
    [onEnded],
  );

  const start = useCallback(
    async (recipe: Recipe, files: readonly File[]) => {
      setState({ phase: 'sending', sent: 0, total: files.length, run: null });
      try {
        if (files.length === 1) {
          const [file] = files as [File];
          const form = new FormData();
          form.set('image', file);
          form.set('name', file.name);
          const answer = await postForm(api(RECIPE_PATHS.run(recipe.id)), form);
          if (!answer.ok || !answer.data) return setState({ phase: 'refused', error: errorOf(answer.data) });
          onEnded();
          return await follow(answer.data.id);
        }
        const names = files.map((file) => file.name);
        const made = await postJson<RecipeRun>(api(RECIPE_PATHS.run(recipe.id)), { size: files.length, names });
        if (!made.ok || !made.data) return setState({ phase: 'refused', error: errorOf(made.data) });
        const runId = made.data.id;
        for (const [item, file] of files.entries()) {
          for (let attempt = 0; attempt <= RETRIES; attempt++) {
            const form = new FormData();
            form.set('image', file);
            form.set('item', String(item));
            form.set('name', file.name);
            const sent = await postForm(api(RECIPE_PATHS.runImages(runId)), form);
            if (sent.status !== 429) break;
            await sleep((sent.data?.retryAfterSeconds ?? 5) * 1000);
          }
          if (!live.current) return;
          setState({ phase: 'sending', sent: item + 1, total: files.length, run: made.data });
        }
        onEnded();
        return await follow(runId);
      } catch {
        if (live.current) setState({ phase: 'refused', error: GENERIC });
      }
    },
    [follow, onEnded],
  );

  const reset = useCallback(() => setState({ phase: 'idle' }), []);
  return { state, start, reset };
}
