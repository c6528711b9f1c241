import { describe, expect, it } from 'vitest';
import type { JobRow } from './queue/jobs-repository';
import { refundOnSuccess } from './refunds';

const png = { bytes: Buffer.from([]), contentType: 'image/png' as const };
const images = (n: number) => ({ kind: 'images' as const, images: Array.from({ length: n }, () => png) });

/** A job as charged: only the fields the refund reads. */
const jobOf = (fields: Partial<JobRow>): JobRow =>
  ({ id: 'job-1', userId: 'user-1', input: {}, provider: 'replicate', ...fields }) as JobRow;

describe('what a succeeding job gives back', () => {
  it('gives back nothing when it was served as charged', () => {
    const job = jobOf({ tool: 'background-swap', charged: 50, input: { numOutputs: 2 } });
    expect(refundOnSuccess(job, images(2), 'replicate')).toBeNull();
  });

  it('gives back nothing for a free preview: it was charged nothing', () => {
    const job = jobOf({ tool: 'background-swap', charged: 0, provider: 'demo', input: { numOutputs: 2 } });
    expect(refundOnSuccess(job, images(1), 'demo')).toBeNull();
  });

  it('gives back all of a paid job that a free preview served, under the job id', () => {
    const job = jobOf({ tool: 'background-swap', charged: 50, input: { numOutputs: 2 } });
    expect(refundOnSuccess(job, images(2), 'demo')).toMatchObject({
      userId: 'user-1',
      delta: 50,
      reason: 'refund',
      reference: 'job-1',
    });
  });

  it('gives back the difference when a cheaper provider served it', () => {
    const job = jobOf({ tool: 'creative-upscaler', charged: 70 });
    expect(refundOnSuccess(job, images(1), 'local')).toMatchObject({ delta: 69, reference: 'job-1' });
  });

  it('gives back the images a per-image tool did not deliver, under partial:<job>', () => {
    const job = jobOf({ tool: 'text-to-pic', charged: 4, input: { numOutputs: 4 } });
    expect(refundOnSuccess(job, images(3), 'replicate')).toMatchObject({ delta: 1, reference: 'partial:job-1' });
    expect(refundOnSuccess(jobOf({ tool: 'colorizer', charged: 6 }), images(1), 'replicate')).toBeNull();
  });
});
