// GET /metrics in Prometheus' text format, and the HTTP histogram every answer is counted in. Open
// outside production; in production only to `Authorization: Bearer <METRICS_TOKEN>` (anyone else
// hears 401), and while METRICS_TOKEN is unset (or METRICS=off) the path is unknown here: it falls
// through to the app's own not-found answer, like any other path.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Metrics, MetricsSource } from './metrics';

export const METRICS_PATH = '/metrics';

export const METRICS_MESSAGES = {
  tokenRequired: 'GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>` in production.',
} as const;

/**
 * Times every answer and counts it by method, route pattern and status: the pattern Hono routed it
 * by (`/api/jobs/:id`, `/api/*` for an unknown API path), so the labels stay few whatever is asked.
 */
export function httpMetrics(metrics: Metrics): MiddlewareHandler {
  if (!metrics.enabled) return (_c, next) => next();
  return async (c, next) => {
    const started = performance.now();
    await next();
    metrics.httpRequest({
      method: c.req.method,
      // After next(): the handler that answered (or the middleware that refused).
      route: routePath(c) || 'unmatched',
      status: c.res.status,
      seconds: (performance.now() - started) / 1000,
    });
  };
}

/** Equal strings, compared in constant time (their digests have one length). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export type MetricsAccess = {
  production: boolean;
  /** METRICS_TOKEN: production's key to the endpoint (none: the endpoint is off there). */
  token: string | undefined;
};

/**
 * Who may read a process's metrics, the one rule of GET /metrics and of the listeners of processes
 * without the app's server (metrics-listener.ts): `absent` (answered as an unknown path), `refused`
 * (401), or `open`.
 */
export function metricsAccess(
  source: MetricsSource,
  { production, token }: MetricsAccess,
  authorization: string | undefined,
): 'absent' | 'refused' | 'open' {
  if (!source.enabled || (production && !token)) return 'absent';
  if (!production || !token) return 'open';
  const given = authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
  return given && sameSecret(given, token) ? 'open' : 'refused';
}

export function metricsEndpoint(options: MetricsAccess & { metrics: Metrics }): MiddlewareHandler {
  const { metrics } = options;
  return async (c, next) => {
    const access = metricsAccess(metrics, options, c.req.header('authorization'));
    if (access === 'absent') return next();
    if (access === 'refused') {
      c.header('WWW-Authenticate', 'Bearer');
      return c.json({ error: METRICS_MESSAGES.tokenRequired }, 401);
    }
    c.header('Cache-Control', 'no-store');
    return c.body(await metrics.render(), 200, { 'Content-Type': metrics.contentType });
  };
}
