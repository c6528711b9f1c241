// A batch's run on its tool page (decision 062): POST /api/batches for the images the page runs, the
// batch's id into the URL (a reload resumes it), the images sent two at a time, each as the tool's
// own body plus its place and name, then GET /api/batches/:id every JOB_POLL_MS until all have ended.
import { useCallback, useEffect, useRef, useState } from 'react';
import { BATCH_MESSAGES, BATCH_PARAM, type Batch, type BatchToolId } from '../../../../contract/batches';
import { type ApiResult, errorMessage, retryAfterSeconds } from '../../../lib/api';
import { createBatch, getBatch, sendBatchImage } from '../../../lib/batches/batch-api';
import { rememberBatchStartedHere } from '../../../lib/batches/started-here';
import { useSearchParams } from '../../../lib/router';
import { useAuth } from '../../../lib/session/auth-context';
import { readAsDataUrl } from '../parts/ImageDropZone';
import { JOB_POLL_MS, TOOL_CALL_RETRY_MS } from '../tool-api';
import { INLINE_MESSAGES } from '../tool-rules';
import type { WebTool } from '../web-tool';

/** Images in flight at once: the server takes each at once (202); two keep the line fed without a burst. */
export const BATCH_SENDS_AT_ONCE = 2;

/** Times an image whose connection failed (or met a server error) is sent again before it is marked failed. */
export const BATCH_SEND_RETRIES = 3;

/** A 429 without a usable `retryAfterSeconds` waits this long. */
const DEFAULT_RETRY_AFTER_SECONDS = 2;

/** The sentence of an image that could not be sent after its retries. */
export const NOT_SENT_MESSAGE = 'This image could not be sent. Please check your connection.';

/** What the page says when POST /api/batches cannot be read. */
export const START_FAILED_MESSAGE = 'The batch could not be started. Please try again.';

/** What the page says when GET /api/batches/:id refuses for another reason than a missing batch. */
export const LOAD_FAILED_MESSAGE = 'This batch could not be loaded.';

/**
 * One image this page sends: waiting its turn, out, accepted (the server's item shows it from the
 * next read) or refused (nothing was charged; `error` is the server's sentence).
 */
export type LocalItem = {
  name: string;
  /** Its preview while the page holds the file. */
  url: string | null;
  state: 'to-send' | 'sending' | 'sent' | 'refused';
  error?: string;
};

/** An image to send: its file and the name the batch keeps. */
export type BatchEntry = { file: File; name: string; url: string | null };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const stillRunning = (batch: Batch) => batch.counts.waiting + batch.counts.running > 0;

/**
 * The batch in the URL (`?batch=<id>`) as the server tells it, and the run that made it here. Leaving
 * the page stops the images not yet sent (they are not kept) and the reads.
 */
export function useBatchRun(tool: WebTool) {
  const { user, applyServerBalance, refreshProfile } = useAuth();
  const [search, setSearch] = useSearchParams();
  const batchId = search.get(BATCH_PARAM);
  const [batch, setBatch] = useState<Batch | null>(null);
  /** This page's images, by item (null: a batch opened from the URL, whose files are not here). */
  const [local, setLocal] = useState<LocalItem[] | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  /** The server no longer has this batch (its sentence), or could not give it (loadError). */
  const [gone, setGone] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  // Read through a ref: the reads' loop should not restart when the session's callbacks change.
  const refreshRef = useRef(refreshProfile);
  refreshRef.current = refreshProfile;
  /** Images still to send or out: the reads go on while any are. */
  const sending = useRef(0);
  const alive = useRef(true);
  /** The run this page started (a new batch drops an older one's sends). */
  const runTicket = useRef(0);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const setItem = useCallback((item: number, change: Partial<LocalItem>) => {
    setLocal((before) => before?.map((entry, index) => (index === item ? { ...entry, ...change } : entry)) ?? before);
  }, []);

  // The batch's reads: at once on opening (a reload), then every JOB_POLL_MS while images are sent,
  // wait or run; they stop when all have ended, when the batch is gone, and when the page is left.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloads` starts them again after "Try again"
  useEffect(() => {
    if (!batchId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      const sendingAsked = sending.current > 0;
      let answer: ApiResult<Batch> | null;
      try {
        answer = await getBatch(batchId);
      } catch {
        answer = null; // offline for a moment: ask again
      }
      if (stopped) return;
      if (answer?.status === 404) {
        setGone(errorMessage(answer.data) ?? BATCH_MESSAGES.notFound);
        return;
      }
      if (answer && !answer.ok && answer.status < 500) {
        setLoadError(errorMessage(answer.data) ?? LOAD_FAILED_MESSAGE);
        if (answer.status === 401 || answer.status === 403) void refreshRef.current();
        return;
      }
      const data = answer?.ok ? answer.data : null;
      if (data) {
        setBatch(data);
        setLoadError(null);
      }
      if (sendingAsked || sending.current > 0 || !data || stillRunning(data)) {
        timer = setTimeout(read, JOB_POLL_MS);
      } else {
        // All ended: the refunds of failed images are in the server's balance now.
        void refreshRef.current();
      }
    };
    // A batch this page just made is known: its first read waits a beat, for the first images.
    timer = setTimeout(read, sending.current > 0 ? JOB_POLL_MS : 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [batchId, reloads]);

  /** Sends image `item` until the server takes or refuses it (429: after its Retry-After; no answer: a few times). */
  const sendOne = useCallback(
    async (id: string, item: number, entry: BatchEntry, fields: Record<string, unknown>, ticket: number) => {
      const live = () => alive.current && ticket === runTicket.current;
      setItem(item, { state: 'sending' });
      let image: string;
      try {
        image = await readAsDataUrl(entry.file);
      } catch {
        setItem(item, { state: 'refused', error: INLINE_MESSAGES.readError });
        return;
      }
      if (!image.startsWith('data:image/')) {
        setItem(item, { state: 'refused', error: INLINE_MESSAGES.prepareError });
        return;
      }
      // The single call's body (its fields, the image, the user) with the image's place and name.
      const body = { ...fields, image, userId: user?.id, item, name: entry.name };
      let failures = 0;
      for (;;) {
        if (!live()) return;
        let answer: Awaited<ReturnType<typeof sendBatchImage>> | null;
        try {
          answer = await sendBatchImage(id, body);
        } catch {
          answer = null;
        }
        if (!live()) return;
        if (answer === null || answer.status >= 500) {
          // The same item sent again answers the job it made: a lost answer costs nothing twice.
          failures += 1;
          if (failures > BATCH_SEND_RETRIES) {
            setItem(item, { state: 'refused', error: (answer && errorMessage(answer.data)) || NOT_SENT_MESSAGE });
            return;
          }
          await sleep(TOOL_CALL_RETRY_MS * failures);
          continue;
        }
        if (answer.status === 429) {
          await sleep((retryAfterSeconds(answer.data) ?? DEFAULT_RETRY_AFTER_SECONDS) * 1000);
          continue;
        }
        applyServerBalance(answer.data);
        if (answer.ok) {
          setItem(item, { state: 'sent' });
          return;
        }
        if (answer.status === 401 || answer.status === 403) void refreshProfile();
        setItem(item, { state: 'refused', error: errorMessage(answer.data) ?? tool.failureMessage });
        return;
      }
    },
    [user?.id, applyServerBalance, refreshProfile, setItem, tool.failureMessage],
  );

  /** Makes the batch of `entries` and sends them; false when the server refused the batch (startError says why). */
  const start = useCallback(
    async (entries: BatchEntry[], fields: Record<string, unknown>): Promise<boolean> => {
      const ticket = ++runTicket.current;
      setStarting(true);
      setStartError(null);
      let answer: Awaited<ReturnType<typeof createBatch>> | null;
      try {
        answer = await createBatch(
          tool.id as BatchToolId,
          entries.map((entry) => entry.name),
        );
      } catch {
        answer = null;
      }
      if (!alive.current || ticket !== runTicket.current) return false;
      setStarting(false);
      if (!answer?.ok || !answer.data) {
        if (answer?.status === 401 || answer?.status === 403) void refreshProfile();
        setStartError((answer && errorMessage(answer.data)) || START_FAILED_MESSAGE);
        return false;
      }
      const made = answer.data;
      rememberBatchStartedHere(made.id);
      sending.current = entries.length;
      setBatch(made);
      setGone(null);
      setLoadError(null);
      setLocal(entries.map(({ name, url }) => ({ name, url, state: 'to-send' })));
      // Replaced, not pushed: Back leaves the tool instead of coming back to the images it ran.
      setSearch(
        (params) => {
          params.set(BATCH_PARAM, made.id);
          return params;
        },
        { replace: true },
      );
      let next = 0;
      const worker = async () => {
        while (next < entries.length && alive.current && ticket === runTicket.current) {
          const item = next++;
          await sendOne(made.id, item, entries[item] as BatchEntry, fields, ticket);
          if (ticket === runTicket.current) sending.current -= 1;
        }
      };
      await Promise.all(Array.from({ length: BATCH_SENDS_AT_ONCE }, worker));
      if (ticket === runTicket.current) sending.current = 0;
      return true;
    },
    [tool.id, refreshProfile, setSearch, sendOne],
  );

  /** Forgets the batch (and stops sending): the page starts empty. */
  const reset = useCallback(() => {
    runTicket.current++;
    sending.current = 0;
    setBatch(null);
    setLocal(null);
    setGone(null);
    setLoadError(null);
    setStartError(null);
    setStarting(false);
  }, []);

  const retry = useCallback(() => {
    setLoadError(null);
    setReloads((n) => n + 1);
  }, []);

  const sendingNow = local?.some((entry) => entry.state === 'to-send' || entry.state === 'sending') ?? false;
  // A batch of this page's run shows before the URL names it; one from the URL once read.
  const shown = batch && (batch.id === batchId || local) ? batch : null;
  return { batchId, batch: shown, local, starting, startError, gone, loadError, sendingNow, start, reset, retry };
}

export type BatchRun = ReturnType<typeof useBatchRun>;
