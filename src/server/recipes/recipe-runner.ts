// Running a recipe (decision 083): each image goes through the steps one job at a time, each step a
// call of the tool-call service (its rules, its price charged when the step starts, its refund if
// the job fails), the previous step's result as its image (`/api/files/<id>`, read back and checked
// as an upload is). The chain's state is in the database (recipe_run_items: the jobs so far), so a
// loop in every web process moves it on: an image whose last job succeeded gets its next step (or
// is done), one whose last job failed stops there (that job refunded as any failed job is; the
// steps after it never run, never charged). A step's call carries an Idempotency-Key of its place
// (run, image, step): two processes moving one image on, or one that crashed between the call and
// the row's update, make one job, and the row's update is conditional on the step it was at.
import { storedImageRef } from '../../contract/creations';
import { RECIPE_MESSAGES, type RecipeStep, stepName } from '../../contract/recipes';
import { toolById } from '../../contract/tools';
import { noteRefusedImage } from '../batches/batch-repository';
import { filesOfJobs } from '../creations/creations-repository';
import type { ToolCallOutcome, ToolCallRequest, ToolCallServiceDeps } from '../jobs/request/tool-call-service';
import { callTool } from '../jobs/request/tool-call-service';
import { waitAtMost, wakeableSleep } from '../loops/loop-timing';
import { readOrCreateProfileWithStorage } from '../profiles/profiles';
import { emailVerifiedOf, endedSteps, findRun, moveItem, type RecipeRunRow } from './recipe-repository';
import { imageFieldOf } from './recipe-steps';

/** Images moved on per read of the ended steps. */
const BATCH_OF_ENDED = 50;

export type RecipeRunner = {
  /** Starts the loop with the tool-call service's dependencies (app.ts). */
  start(deps: ToolCallServiceDeps): void;
  /** Looks for ended steps now (a run's first steps were just sent). */
  wake(): void;
  stop(): Promise<void>;
};

/** An image's place in a run. */
export type RunPlace = { item: number; name: string };

/** The Idempotency-Key of a step of an image of a run: each place makes one job. */
const stepKey = (runId: string, item: number, step: number) => `recipe:${runId}:${item}:${step}`;

/**
 * One step of one image: the tool's call with the step's options and `image`. The last step's job
 * is the batch's image at the item's place (its result goes in the run's zip); the others are the
 * account's single calls.
 */
export function callStep(
  deps: ToolCallServiceDeps,
  run: RecipeRunRow,
  place: RunPlace,
  step: number,
  image: string,
  caller: Pick<ToolCallRequest, 'user' | 'caller' | 'signal'>,
): Promise<ToolCallOutcome> {
  const { tool, options } = run.steps[step] as RecipeStep;
  const body = { ...options, [imageFieldOf(tool)]: image };
  const last = step === run.steps.length - 1;
  return callTool(deps, {
    ...caller,
    tool: toolById(tool),
    body,
    rawBody: JSON.stringify(body),
    ...(last
      ? { batch: { id: run.batchId, item: place.item, name: place.name } }
      : { idempotencyKey: stepKey(run.id, place.item, step) }),
  });
}

/** Why an image's chain stopped at `step`, in the user's words. */
const stoppedAt = (run: RecipeRunRow, step: number, why: string) => {
  const { tool } = run.steps[step] as RecipeStep;
  const later = step < run.steps.length - 1 ? ' The steps after it did not run and took nothing.' : '';
  return `${stepName(step, tool)} failed: ${why}${later}`;
};

/** How long a stop waits for the image in hand (as account setups' stop does). */
const STOP_WAIT_MS = 10_000;

export function createRecipeRunner(options: { pollingIntervalSeconds: number }): RecipeRunner {
  const pause = wakeableSleep();
  let stopped = false;
  let loop: Promise<void> | null = null;
  let logger: ToolCallServiceDeps['logger'] | null = null;

  async function run(deps: ToolCallServiceDeps) {
    while (!stopped) {
      try {
        await advanceRuns(deps);
      } catch (error) {
        deps.logger.error('moving recipe runs on failed; the next poll tries again', { error });
      }
      if (stopped) break;
      await pause.sleep(options.pollingIntervalSeconds * 1000);
    }
  }

  return {
    start(deps) {
      logger = deps.logger;
      if (!loop && !stopped) loop = run(deps);
    },
    wake: () => pause.wake(),
    async stop() {
      stopped = true;
      pause.wake();
      // Bounded, as the other loops' stops: a statement cut off by a closing database may never
      // answer. What was in hand is safe to leave: each step's call carries its Idempotency-Key and an
      // image moves on only from the step it was at, so the next runner finishes it once.
      if (loop && !(await waitAtMost(loop, STOP_WAIT_MS)))
        logger?.warn('stopped with a recipe step in hand; the next runner moves it on', {});
    },
  };
}

/** Moves on every image whose last step has ended, until none is left that can move now. */
export async function advanceRuns(deps: ToolCallServiceDeps): Promise<void> {
  for (;;) {
    const ended = await endedSteps(deps.db, BATCH_OF_ENDED);
    let moved = 0;
    for (const image of ended) if (await advanceImage(deps, image)) moved++;
    // Those left wait for room in the queue (429): the next poll.
    if (moved === 0 || ended.length < BATCH_OF_ENDED) return;
  }
}

type EndedStep = Awaited<ReturnType<typeof endedSteps>>[number];

/** The image's next move; false when it must wait (the account's queue is full). */
async function advanceImage(deps: ToolCallServiceDeps, ended: EndedStep): Promise<boolean> {
  const { db } = deps;
  const run = await findRun(db, ended.runId);
  if (!run) return true;
  const step = ended.jobIds.length - 1;
  const at = { runId: run.id, item: ended.item, steps: ended.jobIds.length };
  const place = { item: ended.item, name: ended.name };
  const fail = async (why: string) => {
    const error = stoppedAt(run, step, why);
    // The batch's README names the image's fate; its last step's own failure is there already.
    if ((await moveItem(db, at, { status: 'failed', error })) && step < run.steps.length - 1)
      await noteRefusedImage(db, run.batchId, { item: place.item, name: place.name, error });
    return true;
  };
  if (ended.jobStatus === 'failed') {
    const { tool } = run.steps[step] as RecipeStep;
    return fail(`${ended.jobError ?? toolById(tool).failureMessage} Its tokens were given back.`);
  }
  if (step === run.steps.length - 1) {
    await moveItem(db, at, { status: 'done' });
    return true;
  }

  const jobId = ended.jobIds[step] as string;
  const [result] = (await filesOfJobs(db, [jobId])).filter((file) => file.kind === 'output');
  if (!result) return fail(RECIPE_MESSAGES.resultGone);
  const [verified, caller] = await Promise.all([
    emailVerifiedOf(db, run.userId),
    readOrCreateProfileWithStorage(db, run.userId),
  ]);
  if (verified === null) return true; // the account is gone: its rows go with it
  const outcome = await callStep(deps, run, place, step + 1, storedImageRef(result.id), {
    user: { id: run.userId, emailVerified: verified },
    caller,
  });
  if (outcome.kind === 'refused') {
    if (outcome.status === 429) return false;
    const next = step + 1;
    const error = stoppedAt(run, next, outcome.error);
    if (await moveItem(db, at, { status: 'failed', error })) {
      await noteRefusedImage(db, run.batchId, { item: place.item, name: place.name, error });
    }
    return true;
  }
  if (await moveItem(db, at, { nextJobId: outcome.jobId })) {
    if (outcome.isNew && !outcome.handedOver) deps.signals?.queued();
  }
  return true;
}
