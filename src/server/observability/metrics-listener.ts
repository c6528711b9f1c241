// GET /metrics of a process without the app's HTTP server (decision 079): a `--worker` process
// (METRICS_PORT) and the local engine process (ENGINE_METRICS_PORT) each listen on a port of their
// own, on METRICS_HOST (127.0.0.1 unless told), and serve their own registry under the same access
// rule as the app's endpoint (metrics-route.ts). Nothing else is served here.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log';
import type { MetricsSource } from './metrics';
import { METRICS_MESSAGES, METRICS_PATH, type MetricsAccess, metricsAccess } from './metrics-route';

export const METRICS_LISTENER_MESSAGES = {
  notFound: `This address serves only GET ${METRICS_PATH}.`,
  failed: 'The metrics could not be read. Please try again.',
} as const;

/**
 * The variable that hands the local engine process its listener's setting (ENGINE_METRICS_PORT, as
 * JSON): system.ts sets it in the engine's environment, engine-main.ts reads it.
 */
export const ENGINE_METRICS_ENV = 'PICTURE_PALETTE_ENGINE_METRICS';
export type EngineMetricsSetting = MetricsAccess & { port: number; host: string };

export type MetricsListener = {
  /** The port listened on (the one the system picked for METRICS_PORT=0). */
  port: number;
  close(): Promise<void>;
};

function answerJson(response: ServerResponse, status: number, error: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify({ error }));
}

async function answer(
  source: MetricsSource,
  access: MetricsAccess,
  request: IncomingMessage,
  response: ServerResponse,
) {
  const path = new URL(request.url ?? '/', 'http://metrics.invalid').pathname;
  const allowed = metricsAccess(source, access, request.headers.authorization);
  if (path !== METRICS_PATH || request.method !== 'GET' || allowed === 'absent') {
    return answerJson(response, 404, METRICS_LISTENER_MESSAGES.notFound);
  }
  if (allowed === 'refused') {
    return answerJson(response, 401, METRICS_MESSAGES.tokenRequired, { 'WWW-Authenticate': 'Bearer' });
  }
  const text = await source.render();
  response.writeHead(200, { 'Content-Type': source.contentType, 'Cache-Control': 'no-store' }).end(text);
}

/** Listens on `port` and `host`; resolves once listening (rejects when the port is taken). */
export function listenForMetrics(
  source: MetricsSource,
  options: MetricsAccess & { port: number; host: string; logger: Logger; process: string },
): Promise<MetricsListener> {
  const { logger } = options;
  const server = createServer((request, response) => {
    answer(source, options, request, response).catch((error) => {
      logger.error('metrics scrape failed', { error });
      if (!response.headersSent) answerJson(response, 500, METRICS_LISTENER_MESSAGES.failed);
      else response.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      logger.info('metrics listening', {
        process: options.process,
        url: `http://${options.host}:${port}${METRICS_PATH}`,
      });
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
      });
    });
  });
}
