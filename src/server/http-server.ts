// The HTTP server around the app: @hono/node-server's request listener on Node's http server. What
// Node and node-server answer by themselves, before the app sees a request, is answered as the app
// answers (issue 52): JSON with an `error` sentence, never an empty 400 or 431 a client cannot explain.
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Logger } from './log';
import { REQUEST_ID_HEADER, requestIdOf } from './observability/request-id';
import { BODY_TOO_LARGE_MESSAGE } from './security/body-limit';

export const HTTP_ERROR_MESSAGES = {
  /** Node's limit on a request's line and headers together (16 KB): a long query string, large cookies. */
  headersTooLarge: "This request's URL or headers are too large. Please send long values in the body instead.",
  malformed: 'This request is not valid HTTP and cannot be read.',
  /** node-server's refusals: a missing or broken Host header, a path with a backslash. */
  badUrl: "This request's URL or Host header cannot be read.",
  /** Node's requestTimeout (5 minutes) or headersTimeout ran out before the request had arrived. */
  timeout: 'This request took too long to arrive. Please try again.',
  chunkExtensionsTooLarge: BODY_TOO_LARGE_MESSAGE,
  serverError: 'Something went wrong on our side. Please try again.',
} as const;

/** The app's 500 sentence with the request's reference (observability/request-id.ts), for the user to quote to support. */
export const serverErrorWithReference = (reference: string) =>
  `${HTTP_ERROR_MESSAGES.serverError} Reference: ${reference}`;

/** Node's parser errors and the answer of each (Node's own statuses, as its default handler gives). */
function clientErrorAnswer(code: string | undefined): { status: number; error: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, error: HTTP_ERROR_MESSAGES.headersTooLarge };
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW')
    return { status: 413, error: HTTP_ERROR_MESSAGES.chunkExtensionsTooLarge };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, error: HTTP_ERROR_MESSAGES.timeout };
  return { status: 400, error: HTTP_ERROR_MESSAGES.malformed };
}

/**
 * Answers Node's `clientError`s (a request it could not parse: there is no request or response
 * object, so the answer is written to the socket) as JSON, and closes the connection. Not where an
 * answer is already under way on the socket: writing into it would garble it; that socket is only
 * destroyed, as Node's own handler does.
 */
function answerClientErrorsAsJson(server: Server) {
  const answering = new WeakMap<Socket, ServerResponse>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => answering.set(request.socket, response));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const response = answering.get(socket);
    const midAnswer = response?.headersSent && !response.writableFinished;
    if (error.code === 'ECONNRESET' || !socket.writable || midAnswer) {
      socket.destroy();
      return;
    }
    const { status, error: sentence } = clientErrorAnswer(error.code);
    const body = JSON.stringify({ error: sentence });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * What node-server answers itself when it cannot make a request of what Node parsed, or the app
 * failed outside its own error handler. A 500 carries a reference as the app's does (a new one:
 * node-server hands over no request to read the caller's from), logged with the error.
 */
function requestErrorAnswer(logger: Logger | undefined) {
  return (error: unknown): Response => {
    const headers = { 'Content-Type': 'application/json', Connection: 'close' };
    if (error instanceof RequestError) {
      return new Response(JSON.stringify({ error: HTTP_ERROR_MESSAGES.badUrl }), { status: 400, headers });
    }
    const reference = requestIdOf(undefined);
    logger?.error('the HTTP server failed outside the app', { requestId: reference, error });
    return new Response(JSON.stringify({ error: serverErrorWithReference(reference), reference }), {
      status: 500,
      headers: { ...headers, [REQUEST_ID_HEADER]: reference },
    });
  };
}

/**
 * Serves `fetch` (the app's) on `port` and `hostname`, as @hono/node-server's `serve` does, with
 * Node's and node-server's own refusals answered as JSON. Resolves once listening.
 */
export function listen(
  fetch: Parameters<typeof getRequestListener>[0],
  options: { port: number; hostname?: string; logger?: Logger },
) {
  const server = createServer(
    getRequestListener(fetch, { hostname: options.hostname, errorHandler: requestErrorAnswer(options.logger) }),
  );
  answerClientErrorsAsJson(server);
  return new Promise<Server>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
