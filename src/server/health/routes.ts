// GET /api/health: the state of the database, the queue and each configured provider.
// Answers 200 when the process can serve, 503 when the database or queue is unreachable.
// In production the details (process, instance, queue sizes, provider set-up) are for operators
// only: callers on this machine or with HEALTH_TOKEN; anyone else gets the status alone.
import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { CLIENT_IP_HEADER } from '../auth/client-ip';
import type { Config } from '../config';
import { type Database, executePrepared } from '../db/client';
import type { InstanceInfo } from '../db/instance';
import type { InferenceRouter } from '../inference/routing';
import { eventLoopDelays } from './event-loop';

export type HealthDeps = {
  config: Config;
  database: Database;
  instance: InstanceInfo;
  inference: InferenceRouter;
  startedAt: Date;
  version: string;
};

type Check = { status: 'ok' } | { status: 'error'; error: string };

const CHECK_TIMEOUT_MS = 3_000;

async function timed<T>(work: () => Promise<T>): Promise<{ latencyMs: number } & Check & { value?: T }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const value = await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok', latencyMs: Math.round(performance.now() - started), value };
  } catch (error) {
    return {
      status: 'error',
      error: error instanceof Error ? error.message : String(error),
      latencyMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
  }
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether a caller may see the details: anyone outside production; in production a caller on this
 * machine (the client address already accounts for trusted proxies, so a proxy on localhost does
 * not make everyone local) or one sending `Authorization: Bearer <HEALTH_TOKEN>`.
 */
export function mayReadHealthDetails(config: Config, headers: Headers): boolean {
  if (config.env !== 'production') return true;
  const token = headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (config.healthToken && token && sameSecret(token, config.healthToken)) return true;
  return LOOPBACK.test(headers.get(CLIENT_IP_HEADER) ?? '');
}

/** The one queue is the tool jobs' in the jobs table (decisions 037, 045); health reports it by this name. */
const TOOL_RUN_QUEUE = 'tool-run';

/**
 * The tool jobs waiting (`queued` rows) and the payments whose refund failed
 * (billing/account-payments.ts), in one statement (named: planned once per connection).
 */
async function healthCounts(database: Database) {
  const { rows } = await executePrepared(
    database.db,
    // The states written out, not bound: a generic plan then still counts `jobs_queue_order_idx`.
    sql`select (select count(*)::int from jobs where status = 'queued') as waiting,
       (select count(*)::int from payments where status = 'refund_failed') as unrefunded`,
  );
  const [row] = rows;
  return {
    waiting: { [TOOL_RUN_QUEUE]: Number(row?.waiting ?? 0) },
    unrefundedPayments: Number(row?.unrefunded ?? 0),
  };
}

export function healthRoutes(deps: HealthDeps) {
  const { config, database, instance } = deps;
  const eventLoop = eventLoopDelays();
  return new Hono().get('/', async (c) => {
    // One statement either way: it reaches the database, which holds the queue too.
    if (!mayReadHealthDetails(config, c.req.raw.headers)) {
      const reachable = await timed(() => database.executeSql('select 1 as reachable'));
      const healthy = reachable.status === 'ok';
      return c.json({ status: healthy ? 'ok' : 'degraded' }, healthy ? 200 : 503);
    }
    const counted = await timed(() => healthCounts(database));
    const healthy = counted.status === 'ok';
    const { value: counts, ...check } = counted;
    return c.json(
      {
        status: healthy ? 'ok' : 'degraded',
        version: deps.version,
        uptimeSeconds: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
        process: { pid: process.pid, web: config.role.web, worker: config.role.worker, eventLoop: eventLoop.recent() },
        database: {
          ...check,
          dialect: database.dialect,
          instanceId: instance.instanceId,
          createdAt: instance.createdAt.toISOString(),
        },
        queue: { ...check, waiting: counts?.waiting ?? null },
        // What an operator must do by hand (details: `npm run admin -- alerts`).
        alerts: { unrefundedPayments: counts?.unrefundedPayments ?? null },
        providers: {
          inference: {
            provider: config.providers.inference,
            external: config.providers.inference === 'replicate',
            // Webhook: Replicate calls back when a prediction is done; polling: a worker waits for it.
            ...(config.replicate ? { mode: config.replicate.webhook ? 'webhook' : 'polling' } : {}),
            tools: deps.inference.describe(),
          },
          payments: { provider: config.providers.payments, external: config.providers.payments === 'stripe' },
          mail: { provider: config.providers.mail, external: config.providers.mail === 'smtp' },
          storage: { provider: config.providers.storage, external: config.providers.storage === 's3' },
        },
      },
      healthy ? 200 : 503,
    );
  });
}
