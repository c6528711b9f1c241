// The client's address for rate limiting, resolved once at the edge into a header that only we
// set (any value the client sent is replaced). Behind N trusted proxies (TRUST_PROXY_HOPS) it is
// the N-th address from the right of X-Forwarded-For; with none, the socket's peer address.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { MiddlewareHandler } from 'hono';

export const CLIENT_IP_HEADER = 'x-pp-client-ip';

export function clientIpFrom(forwardedFor: string | undefined, socketAddress: string | undefined, hops: number) {
  if (hops > 0 && forwardedFor) {
    const chain = forwardedFor
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    const candidate = chain[chain.length - hops];
    if (candidate) return candidate;
  }
  return socketAddress;
}

export function clientIpMiddleware(trustProxyHops: number): MiddlewareHandler {
  return async (c, next) => {
    let socketAddress: string | undefined;
    try {
      socketAddress = getConnInfo(c).remote.address;
    } catch {
      // In-process requests (tests calling app.request) have no socket.
    }
    const ip = clientIpFrom(c.req.header('x-forwarded-for'), socketAddress, trustProxyHops);
    const headers = c.req.raw.headers;
    headers.delete(CLIENT_IP_HEADER);
    if (ip) headers.set(CLIENT_IP_HEADER, ip);
    await next();
  };
}
