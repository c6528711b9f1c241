// Where a webhook may go (issue 53): in production only to a globally routable unicast address, so a
// URL whose host is an address in one of IANA's special-purpose ranges is refused at the call, with
// no job made and nothing charged; and a delivery that fails short of an HTTP answer shows its owner
// one sentence, whatever the reason (a closed port, TLS against plain HTTP, something not HTTP), so
// `webhook.lastError` cannot be used to scan ports. Every receiver here is on 127.0.0.1, in
// development mode; nothing is sent anywhere else.

import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../src/contract/tool-responses';
import { toolById } from '../../src/contract/tools';
import { WEBHOOK_MESSAGES } from '../../src/contract/webhooks';
import { jobs, ledger } from '../../src/server/db/schema';
import { WEBHOOK_TRY_FAILED } from '../../src/server/webhooks/deliveries/send-webhook';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { productionWebhookCall } from '../support/tool-call-deps';
import { instantProvider, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const TEXT_TO_PIC = toolById('text-to-pic');
const CALL_PATH = `/api${TEXT_TO_PIC.apiPath}`;

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend({
    inference: routerWith(instantProvider()),
    // One try each is all these tests look at: no retry while they run.
    env: { WEBHOOK_RETRY_BASE_SECONDS: '600', QUEUE_POLL_SECONDS: '0.5' },
  });
});
afterAll(() => backend.stop());

const listen = async (server: net.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('in production, a webhook to an address that is not globally routable', () => {
  it('is refused at the call with a sentence: no job made, nothing charged', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const ledgerBefore = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    const call = productionWebhookCall(backend, id);
    // Accepted before issue 53: reserved, documentation and benchmarking ranges, and IPv6 forms of them.
    for (const host of [
      '192.0.0.8',
      '192.0.2.1',
      '192.31.196.1',
      '192.52.193.1',
      '192.88.99.1',
      '192.175.48.1',
      '198.18.0.1',
      '198.19.7.7',
      '198.51.100.20',
      '203.0.113.200',
      '[2001:db8::7]',
      '[2001::1]',
      '[100::1]',
      '[3fff::1]',
      '[64:ff9b::c000:201]',
      '[2002:c612:1::1]',
      '[fec0::1]',
    ]) {
      expect(await call(`https://${host}/hook`), host).toEqual({
        kind: 'refused',
        status: 400,
        error: WEBHOOK_MESSAGES.privateHost(host),
      });
    }
    expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, id))).toEqual([]);
    expect(await backend.database.db.select().from(ledger).where(eq(ledger.userId, id))).toEqual(ledgerBefore);
    expect(await tokensOf(client)).toBe(20);
  });
});

describe('a delivery that gets no HTTP answer', () => {
  it('shows its owner the same sentence for a closed port, TLS against plain HTTP and a server that is not HTTP', async () => {
    const plainHttp = http.createServer((_request, response) => response.writeHead(200).end());
    // An SSH banner, then the connection closed (what the client sent read and dropped).
    const notHttp = net.createServer((socket) => socket.resume().end('SSH-2.0-OpenSSH_9.6\r\n'));
    const gone = net.createServer();
    const closedPort = await listen(gone);
    await close(gone);
    try {
      const webhooks = {
        closed: `http://127.0.0.1:${closedPort}/hook`,
        plainHttp: `https://127.0.0.1:${await listen(plainHttp)}/hook`,
        notHttp: `http://127.0.0.1:${await listen(notHttp)}/hook`,
      };
      const { client, id } = await verifiedUser(backend, 20);
      const shown: Record<string, JobDetail['webhook']> = {};
      for (const [kind, webhook] of Object.entries(webhooks)) {
        const called = await client.post<{ jobId: string }>(CALL_PATH, {
          prompt: `a fox ${kind}`,
          webhook,
          userId: id,
        });
        expect(called.status, kind).toBe(200);
        shown[kind] = await eventually(async () => {
          const job = (await client.get<JobDetail>(`/api/jobs/${called.body.jobId}`)).body;
          return job.webhook?.lastError !== undefined && job.webhook;
        });
      }
      for (const [kind, webhook] of Object.entries(webhooks)) {
        expect(shown[kind], kind).toMatchObject({ url: webhook, lastError: WEBHOOK_TRY_FAILED });
      }
    } finally {
      await close(plainHttp);
      await close(notHttp);
    }
  });
});
