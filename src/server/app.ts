// Builds the HTTP application from its modules. Tests call `app.request()` on it in-process.
import { Hono } from 'hono';
import type { Config } from './config';
import type { Database } from './db/client';
import type { InstanceInfo } from './db/instance';
import { healthRoutes } from './health/routes';
import type { Queue } from './jobs/queue';
import type { Logger } from './log';
import { spaRoutes } from './web/spa';

export type AppDeps = {
  config: Config;
  database: Database;
  queue: Queue;
  instance: InstanceInfo;
  logger: Logger;
  startedAt: Date;
  version: string;
  /** The built web app; omitted by API-only tests. */
  webDistDir?: string;
};

export function buildApp(deps: AppDeps) {
  const api = new Hono()
    .route('/health', healthRoutes(deps))
    .all('*', (c) => c.json({ error: `No API route for ${c.req.method} ${c.req.path}` }, 404));

  const app = new Hono();
  app.onError((error, c) => {
    deps.logger.error('unhandled error', { error, method: c.req.method, path: c.req.path });
    return c.json({ error: 'Something went wrong on our side. Please try again.' }, 500);
  });
  app.route('/api', api);
  if (deps.webDistDir) app.route('/', spaRoutes(deps.webDistDir));
  return app;
}

export type App = ReturnType<typeof buildApp>;
