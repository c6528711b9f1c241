// The internal ping job: a worker answers with its id. Tests and operators use it to prove the
// round trip web -> queue -> worker -> result.
import { randomUUID } from 'node:crypto';
import { QUEUE_NAMES, type Queue } from './queue';

export type PingRequest = { nonce: string };
export type PingAnswer = { nonce: string; workerId: string; answeredAt: string };

export async function registerPingWorker(queue: Queue, workerId: string, pollingIntervalSeconds: number) {
  await queue.work<PingRequest>(QUEUE_NAMES.ping, { pollingIntervalSeconds }, async ([job]) => {
    if (!job) return;
    const answer: PingAnswer = { nonce: job.data.nonce, workerId, answeredAt: new Date().toISOString() };
    return answer;
  });
}

/** Sends a ping and waits for a worker's answer; null when no worker answered within `timeoutMs`. */
export async function pingWorker(queue: Queue, timeoutMs: number): Promise<PingAnswer | null> {
  const nonce = randomUUID();
  const id = await queue.send(QUEUE_NAMES.ping, { nonce } satisfies PingRequest, { expireInSeconds: 60 });
  if (!id) throw new Error('the queue refused the ping job');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const job = await queue.getJobById<PingRequest>(QUEUE_NAMES.ping, id);
    if (job?.state === 'completed') return job.output as PingAnswer;
    if (job?.state === 'failed') throw new Error(`ping job failed: ${JSON.stringify(job.output)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}
