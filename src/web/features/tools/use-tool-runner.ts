import { useCallback, useEffect, useRef, useState } from 'react';
import { BATCH_PARAM } from '../../../contract/batches';
import type { Creation } from '../../../contract/creations';
import { ROUTES } from '../../../contract/routes';
import type { ToolRequest } from '../../../contract/tool-requests';
import {
  type Analysis,
  type Color,
  isPending,
  isSuccess,
  type JobView,
  type Keyword,
  type ToolAnswer,
} from '../../../contract/tool-responses';
import type { ToolId } from '../../../contract/tools';
import { type ApiResult, errorMessage } from '../../lib/api';
import { batchStartedHere } from '../../lib/batches/started-here';
import { listCreations } from '../../lib/creations/creations-api';
import { SENT_IMAGE_PARAM } from '../../lib/creations/send-to';
import { followOnPage, unwatchJob, watchJob } from '../../lib/jobs/job-watch';
import { useNavigate, useSearchParams } from '../../lib/router';
import { useAuth } from '../../lib/session/auth-context';
import { readToolDraft, saveToolDraft, type ToolDraft } from '../../lib/tool-draft';
import { progressFrom, type RunningJob, sameProgress } from './parts/progress';
import { type Access, accessOf } from './tool-access';
import { callTool, FIRST_LOOK_MS, getJob, JOB_FOLLOW_WAIT_SECONDS, JOB_POLL_MS } from './tool-api';
import { firstFailingCheck } from './tool-rules';
import { useToolPricing } from './use-tool-pricing';
import type { WebTool } from './web-tool';

/** A tool call's body as the page builds it: the contract's request, without userId (added here). */
export type ToolBody<Id extends ToolId> = Omit<ToolRequest<Id>, 'userId'>;

export type JobState<Id extends ToolId = ToolId> =
  | { phase: 'idle' }
  /** See RunningJob (parts/progress.ts). */
  | RunningJob
  /**
   * `request`: the body that was sent, or the settings of a job shown again (the Image Upscaler titles
   * its result with the scale asked for). `before`: the input image of a job shown again (a fresh
   * job's input is the page's own image), for the before/after comparison. `demo`: a free preview,
   * a labelled placeholder not to be sent on to another tool.
   */
  | {
      phase: 'done';
      images: string[];
      analysis: Analysis | null;
      request: ToolBody<Id>;
      before: string | null;
      demo: boolean;
      /** The job it is (null when the answer did not say): a cut-out's "Refine" opens it (issue 58). */
      jobId: string | null;
    };

export type SubmitRequest<Id extends ToolId = ToolId> = {
  /** Tokens this call takes (the runner's `price` times the units): 0 for a free preview. */
  cost: number;
  hasImage: boolean;
  /** The request body without userId (built only when the checks pass). */
  body: () => ToolBody<Id>;
  /**
   * The page's own look at its inputs before the spec's checks (a blank or too long prompt): why
   * nothing may go out, said beside the input, or null. Nothing is sent while it answers a reason.
   */
  invalid?: () => string | null;
  /** What to keep for the user's return when the checks send them to /tokens (image, settings). */
  draft?: () => Pick<ToolDraft, 'image' | 'settings'>;
};

/** The newest job of this tool, shown again when the page opens (null: none, or not signed in). */
async function latestCreation(tool: ToolId): Promise<Creation | null> {
  const answer = await listCreations({ tool, limit: 1 });
  return (answer.ok && answer.data?.creations[0]) || null;
}

/** What the page reads of a finished job. */
type FinalJob = Pick<JobView, 'status' | 'output' | 'keywords' | 'colors' | 'error' | 'demo'>;

const IDLE = { phase: 'idle' } as const;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a finished job's view adds to its images: the analysis, its input, whether it is a free preview. */
type FinishedWith = {
  keywords?: Keyword[] | null;
  colors?: Color[] | null;
  before?: string | null;
  demo?: boolean;
  /** The job: a tool call's answer names it `jobId`, a job's view and a creation `id`. */
  jobId?: string;
  id?: string;
};

const asList = (output: string[] | string | null | undefined): string[] =>
  Array.isArray(output) ? output : output ? [output] : [];

/**
 * One tool page's job: the spec's checks before the call (section 5), the call, following a job the
 * server is still running (202, then GET /api/jobs/:id), the messages of section 8, and the balance
 * from the server's answer. A newer call, reset() or leaving the page drops an older call's answer.
 */
export function useToolRunner<Id extends ToolId>(tool: WebTool<Id>) {
  const { status, user, profile, applyServerBalance, refreshProfile } = useAuth();
  const navigate = useNavigate();
  const [job, setJob] = useState<JobState<Id>>(IDLE);
  const [message, setMessage] = useState<string | null>(null);
  /** Why a single-image job failed, when the server knows more than the spec's message says. */
  const [messageDetail, setMessageDetail] = useState<string | null>(null);
  const ticket = useRef(0);
  /** The server's job this page follows now: when the page lets go of it, the app shell follows it. */
  const following = useRef<string | null>(null);
  /** The user chose an image or ran the tool: the latest job found on opening must not replace that. */
  const userActed = useRef(false);
  /** The stored input of a job still running when the page opened: the page shows it as its image again. */
  const [resumedInput, setResumedInput] = useState<string | null>(null);
  /** The prompt of that job, which the page's prompt field shows again. */
  const [resumedPrompt, setResumedPrompt] = useState<string | null>(null);
  const [search, setSearch] = useSearchParams();
  const imageWasSent = search.has(SENT_IMAGE_PARAM);
  /** The page opened with what the user left on the way to /tokens: that, not their latest job, is shown. */
  const [draftOnOpen] = useState(() => readToolDraft(tool.id) !== null);

  /** Ends this page's claim on the job it follows (followOnPage). */
  const releaseFollow = useRef<(() => void) | null>(null);

  /** Hands a job still running to the app shell, which says when it finishes. */
  const letGo = useCallback(() => {
    releaseFollow.current?.();
    releaseFollow.current = null;
    if (following.current) watchJob({ id: following.current, title: tool.title, route: tool.route });
    following.current = null;
  }, [tool.title, tool.route]);

  useEffect(
    () => () => {
      ticket.current++;
      letGo();
    },
    [letGo],
  );

  const access: Access = accessOf(status, profile);
  const failureText = tool.failureText;

  /** The message for an answer that is not a success, or for no answer at all (null). */
  const answerFailure = useCallback(
    (answer: ApiResult<ToolAnswer> | null): string => {
      if (!answer) return failureText?.network ?? tool.failureMessage;
      const error = errorMessage(answer.data);
      if (failureText) return error ?? failureText.fallback;
      // Single-image tools: a refusal (4xx) says what to change; a failed job gets the tool's message.
      return answer.status >= 400 && answer.status < 500 ? (error ?? tool.failureMessage) : tool.failureMessage;
    },
    [failureText, tool.failureMessage],
  );

  /**
   * Asks about a running job until it is final; null when this call was dropped meanwhile. Each read
   * waits on the server for the finish (JOB_FOLLOW_WAIT_SECONDS), so the next is sent at once; one
   * answered sooner is followed after JOB_POLL_MS.
   */
  const follow = useCallback(async (jobId: string, mine: number): Promise<FinalJob | null> => {
    let pause = FIRST_LOOK_MS;
    for (;;) {
      await sleep(pause);
      if (mine !== ticket.current) return null;
      const asked = Date.now();
      pause = JOB_POLL_MS;
      let view: Awaited<ReturnType<typeof getJob>>;
      try {
        view = await getJob(jobId, JOB_FOLLOW_WAIT_SECONDS);
      } catch {
        continue; // offline for a moment: ask again
      }
      if (mine !== ticket.current) return null;
      // A server error (a restart, the database for a moment) says nothing of the job: ask again.
      if (view.status >= 500) continue;
      pause = Math.max(0, JOB_POLL_MS - (Date.now() - asked));
      if (!view.ok || !view.data)
        return { status: 'failed', output: null, keywords: null, colors: null, error: null, demo: false };
      if (view.data.status === 'succeeded' || view.data.status === 'failed') return view.data;
      const progress = progressFrom({ ...view.data, status: view.data.status });
      setJob((current) =>
        current.phase === 'running' && !sameProgress(current, progress) ? { ...current, ...progress } : current,
      );
    }
  }, []);

  const fail = useCallback((text: string, serverError?: string | null) => {
    setJob(IDLE);
    setMessage(text);
    // The spec's message stays; a reason it does not give ("We couldn't find a face…") goes under it.
    setMessageDetail(serverError && serverError !== text ? serverError : null);
  }, []);

  const finish = useCallback(
    (
      request: ToolBody<Id>,
      images: string[],
      { keywords, colors, before = null, demo = false, jobId, id }: FinishedWith = {},
    ) =>
      setJob({
        phase: 'done',
        images,
        analysis: tool.result.kind === 'analysis' ? { keywords: keywords ?? [], colors: colors ?? [] } : null,
        request,
        before,
        demo,
        jobId: jobId ?? id ?? null,
      }),
    [tool.result.kind],
  );

  /** Follows a job the server is still running to its end; false when this call was dropped meanwhile. */
  const followToEnd = useCallback(
    async (jobId: string, mine: number, request: ToolBody<Id>, before: string | null = null) => {
      following.current = jobId;
      // The shell's "result ready" notice is for jobs no page shows: this one is shown here.
      const release = followOnPage(jobId);
      releaseFollow.current = release;
      const view = await follow(jobId, mine).finally(release);
      if (!view) return;
      following.current = null;
      void refreshProfile(); // charged, or refunded after a failure: the server's number
      if (view.status === 'succeeded') finish(request, view.output ?? [], { ...view, before });
      else fail(failureText ? (view.error ?? failureText.fallback) : tool.failureMessage, view.error);
    },
    [follow, refreshProfile, finish, fail, failureText, tool.failureMessage],
  );

  // Opening the page shows the user's running or latest job of this tool (not when an image was sent here).
  const userId = status === 'signed-in' ? user?.id : undefined;
  useEffect(() => {
    if (!userId || imageWasSent || userActed.current) return;
    const mine = ticket.current;
    latestCreation(tool.id).then(
      (latest) => {
        // Left, or the user started something meanwhile.
        if (!latest || mine !== ticket.current || userActed.current) return;
        if (latest.batch) {
          // The latest is a batch's image: the page opens on that batch (decision 062), as it would on
          // a job, when this browser started it; one made through the API stays in My Creations.
          const batchId = latest.batch.id;
          if (!draftOnOpen && batchStartedHere(batchId))
            setSearch(
              (params) => {
                if (!params.has(BATCH_PARAM)) params.set(BATCH_PARAM, batchId);
                return params;
              },
              { replace: true },
            );
          return;
        }
        const request = latest.settings as unknown as ToolBody<Id>;
        const before = latest.inputs[0]?.url ?? null;
        if (latest.status === 'queued' || latest.status === 'running') {
          unwatchJob(latest.id);
          setResumedInput(before);
          const prompt = (latest.settings as { prompt?: unknown }).prompt;
          if (typeof prompt === 'string') setResumedPrompt(prompt);
          setJob({ phase: 'running', status: latest.status, startedAt: Date.parse(latest.createdAt) || Date.now() });
          void followToEnd(latest.id, mine, request, before);
        } else if (latest.status === 'succeeded') {
          const images = latest.outputs.length > 0 ? latest.outputs.map((image) => image.url) : asList(latest.output);
          finish(request, images, { ...latest, before });
        }
      },
      () => {}, // offline: the page starts empty, as before
    );
  }, [userId, imageWasSent, tool.id, followToEnd, finish, draftOnOpen, setSearch]);

  const run = useCallback(
    async (body: ToolBody<Id>) => {
      userActed.current = true;
      const mine = ++ticket.current;
      letGo();
      setMessage(null);
      setMessageDetail(null);
      setJob({ phase: 'running', status: 'sending', startedAt: Date.now() });
      let answer: ApiResult<ToolAnswer>;
      try {
        answer = await callTool(tool, body, user?.id);
      } catch {
        if (mine === ticket.current) fail(answerFailure(null));
        return;
      }
      applyServerBalance(answer.data);
      const data = answer.data;
      if (mine !== ticket.current) {
        // Left (or reset) while the call was out: the shell follows the job it started, and says how it ended.
        if (data && 'jobId' in data) watchJob({ id: data.jobId, title: tool.title, route: tool.route });
        return;
      }

      if (answer.status === 202 && data && isPending(data)) {
        setJob((current) => ({
          phase: 'running',
          ...progressFrom(data),
          startedAt: current.phase === 'running' ? current.startedAt : Date.now(),
        }));
        await followToEnd(data.jobId, mine, body);
        return;
      }
      if (answer.ok && data && isSuccess(data)) {
        if ('output' in data) finish(body, asList(data.output), data);
        else finish(body, [], data);
        return;
      }
      // Signed out or flagged meanwhile: let the page catch up with the server.
      if (answer.status === 401 || answer.status === 403) void refreshProfile();
      fail(answerFailure(answer), answer.status >= 500 ? errorMessage(answer.data) : null);
    },
    [tool, user?.id, applyServerBalance, refreshProfile, answerFailure, letGo, followToEnd, finish, fail],
  );

  const submit = useCallback(
    (request: SubmitRequest<Id>) => {
      if (job.phase === 'running') return;
      if (request.invalid?.()) {
        setMessage(null);
        setMessageDetail(null);
        return;
      }
      const outcome = firstFailingCheck(tool.submitChecks, {
        profile: status === 'signed-in' ? profile : null,
        cost: request.cost,
        hasImage: request.hasImage,
      });
      if (outcome?.kind === 'redirect-to-tokens') {
        saveToolDraft({ toolId: tool.id, cost: request.cost, ...request.draft?.() });
        navigate(ROUTES.tokens);
        return;
      }
      if (outcome?.kind === 'message') {
        setMessage(outcome.text);
        setMessageDetail(null);
        return;
      }
      if (outcome?.kind === 'ignore') return;
      void run(request.body());
    },
    [job.phase, tool.submitChecks, tool.id, status, profile, navigate, run],
  );

  /** Drops the result, the message and any call still out (a new image, or ×). */
  const reset = useCallback(() => {
    userActed.current = true;
    ticket.current++;
    letGo();
    setJob(IDLE);
    setMessage(null);
    setMessageDetail(null);
  }, [letGo]);

  /** Shows a version of the result made on the page (a cut-out refined by hand) in its place. */
  const showVersion = useCallback(
    (version: Creation) => {
      const current = job.phase === 'done' ? job : null;
      finish(
        (current?.request ?? version.settings) as ToolBody<Id>,
        version.outputs.map((image) => image.url),
        { ...version, before: current?.before ?? version.inputs[0]?.url ?? null },
      );
    },
    [job, finish],
  );

  const busy = job.phase === 'running';
  const { provider, price, freePreview } = useToolPricing(tool);
  const flagsBlock = tool.checksAccountFlags && access !== 'ready' && access !== 'signed-out';
  return {
    tool,
    access,
    /** The signed-in balance, or null when unknown. */
    balance: status === 'signed-in' && profile ? profile.tokens : null,
    /** Tokens a call takes per unit here (GET /api/tools): 0 for a free preview. */
    price,
    /** This server gives the tool as a free preview: the button says so instead of a price. */
    freePreview,
    /** What serves the tool here ('demo', 'local', 'replicate'), or null while unknown. */
    provider,
    job,
    busy,
    /** The stored input (/api/files/<id>) of the running job the page opened on, or null. */
    resumedInput,
    /** The prompt of the running job the page opened on, or null. */
    resumedPrompt,
    /** Inputs and the action are off: the first check is running, or the account may not use this tool. */
    locked: access === 'unknown' || flagsBlock,
    busyLabel: tool.busyLabel,
    message,
    messageDetail,
    submit,
    reset,
    showVersion,
  };
}

export type ToolRunner<Id extends ToolId = ToolId> = ReturnType<typeof useToolRunner<Id>>;
