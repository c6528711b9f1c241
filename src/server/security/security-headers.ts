// Security headers on every response. The web app is served from our origin only (scripts,
// styles, fonts and images are files of dist/web; uploads preview as data: URLs, downloads go
// through blob: URLs), so the policy allows 'self' and those two schemes, and nothing may frame
// us. A route that needs another policy sets its own header first (the dev outbox's sandbox, the
// test checkout's inline style): it is kept.
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

export const APP_CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** HSTS only in production, where the app is served over https (APP_URL must be https there). */
export function securityHeaders(options: { production: boolean }): MiddlewareHandler {
  return secureHeaders({
    overwrite: false,
    contentSecurityPolicy: APP_CONTENT_SECURITY_POLICY,
    strictTransportSecurity: options.production ? 'max-age=31536000; includeSubDomains' : false,
    xFrameOptions: 'DENY',
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginEmbedderPolicy: false,
    // No Cross-Origin-Opener-Policy: Google sign-in runs in a popup that goes through Google's
    // origin and back to ours, then reports to its opener; COOP would cut that link.
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: 'same-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}

/** The policy of a server-rendered page whose one inline <style> is `style` (allowed by its hash). */
export function inlineStylePagePolicy(style: string): string {
  const hash = createHash('sha256').update(style).digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
}
