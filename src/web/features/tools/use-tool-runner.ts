import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ROUTES } from '../../../contract/routes';
import { type ToolId, toolById } from '../../../contract/tools';
import { type ApiResult, errorMessage } from '../../lib/api';
import { useAuth } from '../auth/auth-context';
import { type Access, accessOf } from './tool-access';
import { type Analysis, callTool, getJob, JOB_POLL_MS, type JobView, type ToolAnswer } from './tool-api';
import { BUSY_LABEL, CHECKS_ACCOUNT_FLAGS, FAILURE_TEXT, firstFailingCheck } from './tool-rules';

export type JobState =
  | { phase: 'idle' }
  /** 'sending': the call is out; 'queued' and 'running': the server is still working (202). */
  | { phase: 'running'; status: 'sending' | 'queued' | 'running'; queuePosition?: number | null }
  /** `request`: the body that was sent (the Image Upscaler titles its result with the scale asked for). */
  | { phase: 'done'; images: string[]; analysis: Analysis | null; request: Record<string, unknown> };

export type SubmitRequest = {
  /** Tokens this call costs. */
  cost: number;
  hasImage: boolean;
  /** The request body without userId (built only when the checks pass). */
  body: () => Record<string, unknown>;
};

const IDLE: JobState = { phase: 'idle' };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const asList = (output: string[] | string | null | undefined): string[] =>
  Array.isArray(output) ? output : output ? [output] : [];

/**
 * One tool page's job: the spec's checks before the call (section 5), the call, following a job the
 * server is still running (202, then GET /api/jobs/:id), the messages of section 8, and the balance
 * from the server's answer. A newer call, reset() or leaving the page drops an older call's answer.
 */
export function useToolRunner(toolId: ToolId) {
  const tool = toolById(toolId);
  const { status, user, profile, applyServerBalance, refreshProfile } = useAuth();
  const navigate = useNavigate();
  const [job, setJob] = useState<JobState>(IDLE);
  const [message, setMessage] = useState<string | null>(null);
  /** Why a single-image job failed, when the server knows more than the spec's message says. */
  const [messageDetail, setMessageDetail] = useState<string | null>(null);
  const ticket = useRef(0);

  useEffect(
    () => () => {
      ticket.current++;
    },
    [],
  );

  const access: Access = accessOf(status, profile);
  const failureText = FAILURE_TEXT[toolId];

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

  /** Asks about a running job until it is final; null when this call was dropped meanwhile. */
  const follow = useCallback(async (jobId: string, mine: number): Promise<JobView | null> => {
    for (;;) {
      await sleep(JOB_POLL_MS);
      if (mine !== ticket.current) return null;
      let view: ApiResult<JobView>;
      try {
        view = await getJob(jobId);
      } catch {
        continue; // offline for a moment: ask again
      }
      if (mine !== ticket.current) return null;
      if (!view.ok || !view.data)
        return { id: jobId, status: 'failed', output: null, keywords: null, colors: null, error: null };
      if (view.data.status === 'succeeded' || view.data.status === 'failed') return view.data;
      const next = view.data.status;
      const position = view.data.queuePosition ?? null;
      setJob((current) =>
        current.phase === 'running' && (current.status !== next || (current.queuePosition ?? null) !== position)
          ? { phase: 'running', status: next, queuePosition: position }
          : current,
      );
    }
  }, []);

  const run = useCallback(
    async (body: Record<string, unknown>) => {
      const mine = ++ticket.current;
      setMessage(null);
      setMessageDetail(null);
      setJob({ phase: 'running', status: 'sending' });
      const fail = (text: string, serverError?: string | null) => {
        setJob(IDLE);
        setMessage(text);
        // The spec's message stays; a reason it does not give ("No face found…") goes under it.
        setMessageDetail(serverError && serverError !== text ? serverError : null);
      };
      const finish = (images: string[], source: Pick<ToolAnswer, 'keywords' | 'colors'>) =>
        setJob({
          phase: 'done',
          images,
          analysis:
            tool.response === 'analysis' ? { keywords: source.keywords ?? [], colors: source.colors ?? [] } : null,
          request: body,
        });
      let answer: ApiResult<ToolAnswer>;
      try {
        answer = await callTool(tool, { ...body, userId: user?.id });
      } catch {
        if (mine === ticket.current) fail(answerFailure(null));
        return;
      }
      applyServerBalance(answer.data);
      if (mine !== ticket.current) return;
      const data = answer.data;

      if (answer.status === 202 && data?.pending && data.jobId) {
        setJob({
          phase: 'running',
          status: data.status === 'running' ? 'running' : 'queued',
          queuePosition: data.queuePosition ?? null,
        });
        const view = await follow(data.jobId, mine);
        if (!view) return;
        void refreshProfile(); // charged, or refunded after a failure: the server's number
        if (view.status === 'succeeded') finish(view.output ?? [], view);
        else fail(failureText ? (view.error ?? failureText.fallback) : tool.failureMessage, view.error);
        return;
      }
      if (answer.ok && data?.success) {
        finish(asList(data.output), data);
        return;
      }
      // Signed out or flagged meanwhile: let the page catch up with the server.
      if (answer.status === 401 || answer.status === 403) void refreshProfile();
      fail(answerFailure(answer), answer.status >= 500 ? errorMessage(answer.data) : null);
    },
    [tool, user?.id, applyServerBalance, refreshProfile, follow, answerFailure, failureText],
  );

  const submit = useCallback(
    (request: SubmitRequest) => {
      if (job.phase === 'running') return;
      const outcome = firstFailingCheck(toolId, {
        profile: status === 'signed-in' ? profile : null,
        cost: request.cost,
        hasImage: request.hasImage,
      });
      if (outcome?.kind === 'redirect-to-tokens') {
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
    [job.phase, toolId, status, profile, navigate, run],
  );

  /** Drops the result, the message and any call still out (a new image, or ×). */
  const reset = useCallback(() => {
    ticket.current++;
    setJob(IDLE);
    setMessage(null);
    setMessageDetail(null);
  }, []);

  const busy = job.phase === 'running';
  const flagsBlock = CHECKS_ACCOUNT_FLAGS[toolId] && access !== 'ready' && access !== 'signed-out';
  return {
    tool,
    access,
    /** The signed-in balance, or null when unknown. */
    balance: status === 'signed-in' && profile ? profile.tokens : null,
    job,
    busy,
    /** Inputs and the action are off: the first check is running, or the account may not use this tool. */
    locked: access === 'unknown' || flagsBlock,
    busyLabel: tool.response === 'image-list' ? BUSY_LABEL.generate : BUSY_LABEL.process,
    message,
    messageDetail,
    submit,
    reset,
  };
}

export type ToolRunner = ReturnType<typeof useToolRunner>;
