import { describe, expect, it } from 'vitest';
import { estimateWait, type Line, type WorkerShape } from './wait-estimate';

const LOCAL: WorkerShape = { slotsPerWorker: 2, oneRunPerModel: true };
const REMOTE: WorkerShape = { slotsPerWorker: 2, oneRunPerModel: false };
const usual =
  (seconds: Record<string, number | null>) =>
  (tool: string): number | null =>
    seconds[tool] ?? null;
const upscale33 = usual({ upscale: 33, face: 30 });

const estimates = (line: Line, shape: WorkerShape, typical = upscale33) =>
  Object.fromEntries([...line.held, ...line.queued].map((job) => [job.id, estimateWait(job.id, line, shape, typical)]));

describe('the wait estimate', () => {
  it('three 2x upscales on the local engine with two slots: one runs, the held one waits for the model, the third for a slot', () => {
    // The case: all three were told "usually about 0:33" and none "Queued".
    const line: Line = {
      held: [
        { id: 'a', tool: 'upscale', worker: 'w', heldFor: 0 },
        { id: 'b', tool: 'upscale', worker: 'w', heldFor: 0 },
      ],
      queued: [{ id: 'c', tool: 'upscale' }],
    };
    expect(estimates(line, LOCAL)).toEqual({
      a: { position: null, secondsLeft: 33 },
      b: { position: 1, secondsLeft: 66 },
      c: { position: 2, secondsLeft: 99 },
    });
  });

  it('counts what a running job has done: the rest of its usual time, never less than a tenth of it', () => {
    const running = (heldFor: number) =>
      estimateWait('a', { held: [{ id: 'a', tool: 'upscale', worker: 'w', heldFor }], queued: [] }, LOCAL, upscale33);
    expect(running(10)).toEqual({ position: null, secondsLeft: 23 });
    // Past its usual time it is not done: it is near the end.
    expect(running(60)).toEqual({ position: null, secondsLeft: 3 });
  });

  it('on the local engine, two models running at once share the cores: each takes longer', () => {
    const line: Line = {
      held: [
        { id: 'up', tool: 'upscale', worker: 'w', heldFor: 0 },
        { id: 'fix', tool: 'face', worker: 'w', heldFor: 0 },
      ],
      queued: [],
    };
    // Both at half speed until the face is done at 60 s; the upscale's last 3 s alone.
    expect(estimates(line, LOCAL)).toEqual({
      up: { position: null, secondsLeft: 63 },
      fix: { position: null, secondsLeft: 60 },
    });
  });

  it('a job queued behind another model starts when a slot frees, and shares the cores from then on', () => {
    const line: Line = {
      held: [
        { id: 'a', tool: 'upscale', worker: 'w', heldFor: 0 },
        { id: 'b', tool: 'upscale', worker: 'w', heldFor: 0 },
      ],
      queued: [{ id: 'fix', tool: 'face' }],
    };
    // a alone to 33 s; then b gets the model and the face a slot: at half speed each, the face's 30 s end at 93.
    expect(estimateWait('fix', line, LOCAL, upscale33)).toEqual({ position: 2, secondsLeft: 93 });
  });

  it('a provider that runs jobs side by side (Replicate): only the slots make a job wait', () => {
    const line: Line = {
      held: [
        { id: 'a', tool: 'upscale', worker: 'w', heldFor: 13 },
        { id: 'b', tool: 'upscale', worker: 'w', heldFor: 3 },
      ],
      queued: [
        { id: 'c', tool: 'upscale' },
        { id: 'd', tool: 'upscale' },
      ],
    };
    expect(estimates(line, REMOTE)).toEqual({
      a: { position: null, secondsLeft: 20 },
      b: { position: null, secondsLeft: 30 },
      c: { position: 1, secondsLeft: 53 },
      d: { position: 2, secondsLeft: 63 },
    });
  });

  it('spreads the queue over every worker running jobs', () => {
    const line: Line = {
      held: [
        { id: 'a', tool: 'upscale', worker: 'w1', heldFor: 0 },
        { id: 'b', tool: 'upscale', worker: 'w2', heldFor: 20 },
      ],
      queued: [
        { id: 'c', tool: 'upscale' },
        { id: 'd', tool: 'upscale' },
      ],
    };
    // Each worker's second slot takes one at once; each waits for its worker's model.
    expect(estimates(line, LOCAL)).toMatchObject({
      c: { position: 2, secondsLeft: 66 },
      d: { position: 1, secondsLeft: 46 },
    });
  });

  it('a job queued on an idle worker starts at once: next, and its usual time', () => {
    expect(estimateWait('a', { held: [], queued: [{ id: 'a', tool: 'face' }] }, LOCAL, upscale33)).toEqual({
      position: 1,
      secondsLeft: 30,
    });
  });

  it('still gives the place in line when a tool has no usual time yet, but no time', () => {
    const line: Line = {
      held: [{ id: 'a', tool: 'new-tool', worker: null, heldFor: 5 }],
      queued: [
        { id: 'b', tool: 'upscale' },
        { id: 'c', tool: 'upscale' },
      ],
    };
    const shape = { slotsPerWorker: 1, oneRunPerModel: true };
    expect(estimates(line, shape)).toEqual({
      a: { position: null, secondsLeft: null },
      b: { position: 1, secondsLeft: null },
      c: { position: 2, secondsLeft: null },
    });
  });

  it('says nothing of a job that is not in the line (finished meanwhile)', () => {
    expect(estimateWait('gone', { held: [], queued: [] }, LOCAL, upscale33)).toEqual({
      position: null,
      secondsLeft: null,
    });
  });
});
