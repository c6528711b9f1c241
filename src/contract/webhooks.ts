// Webhooks of tool calls (issue 39): the `webhook` URL a call may carry, the rules it must meet, the
// account's signing secret, and the event a delivery POSTs (Standard Webhooks, signed with the
// secret). The address rules are pure code here, so the call (its URL's host) and the delivery (the
// addresses the host resolves to, server/webhooks/deliveries) judge an address alike.
import { z } from 'zod';
import { JOB_DETAIL } from './api-response-schemas';

/** The longest webhook URL a call may carry. */
export const WEBHOOK_URL_MAX_CHARS = 2000;

/** The sentences a refused webhook URL is answered with (400, nothing charged). */
export const WEBHOOK_MESSAGES = {
  notText: 'The webhook must be a URL, such as https://example.com/hooks/picture-palette.',
  invalid: 'The webhook must be an absolute URL, such as https://example.com/hooks/picture-palette.',
  tooLong: `The webhook URL can be at most ${WEBHOOK_URL_MAX_CHARS.toLocaleString('en-US')} characters long.`,
  scheme: 'The webhook URL must start with https:// or http://.',
  credentials: 'The webhook URL can’t contain a user name or password.',
  httpsOnly: 'The webhook URL must start with https://.',
  privateHost: (host: string) =>
    `The webhook URL’s host ${host} is a local or private address; use an address reachable from the internet.`,
} as const;

/** The shape of a webhook URL, checked the same everywhere: an absolute http(s) URL of at most 2,000 characters. */
export const WEBHOOK_URL = z
  .string({ error: WEBHOOK_MESSAGES.notText })
  .max(WEBHOOK_URL_MAX_CHARS, WEBHOOK_MESSAGES.tooLong)
  .superRefine((value, ctx) => {
    const reason = webhookUrlShapeProblem(value);
    if (reason) ctx.addIssue({ code: 'custom', message: reason });
  })
  // For the OpenAPI document and the /developers page (z.toJSONSchema carries these).
  .meta({
    format: 'uri',
    description:
      "Where to POST the job as JSON when it ends (succeeded, or failed and refunded), signed as Standard Webhooks specifies with the account's secret (GET /api/webhook-secret). https only in production.",
  });

function webhookUrlShapeProblem(value: string): string | null {
  if (!URL.canParse(value)) return WEBHOOK_MESSAGES.invalid;
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return WEBHOOK_MESSAGES.scheme;
  if (url.username || url.password) return WEBHOOK_MESSAGES.credentials;
  if (!url.hostname) return WEBHOOK_MESSAGES.invalid;
  return null;
}

/**
 * What production adds to a webhook URL of the right shape (WEBHOOK_URL): https only, and no host
 * that names this machine or a private network (an IP literal in those ranges, `localhost`, `.local`,
 * `.internal`). Outside production anything of the right shape is taken (http on 127.0.0.1 for
 * tests and development). Null: accepted. The delivery checks the resolved addresses again.
 */
export function webhookUrlRefusal(value: string, { production }: { production: boolean }): string | null {
  const shape = webhookUrlShapeProblem(value);
  if (shape || !production) return shape;
  const url = new URL(value);
  if (url.protocol !== 'https:') return WEBHOOK_MESSAGES.httpsOnly;
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isLocalName(host) || isNonPublicAddress(host)) return WEBHOOK_MESSAGES.privateHost(url.hostname);
  return null;
}

const LOCAL_NAME_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan'];
const isLocalName = (host: string) =>
  host === 'localhost' || !host.includes('.') || LOCAL_NAME_SUFFIXES.some((suffix) => host.endsWith(suffix));

/** An IPv4 address as its four bytes, or null when `text` is not a dotted quad. */
function ipv4Bytes(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** An IPv6 address as its eight 16-bit groups (a trailing dotted quad read as two), or null. */
function ipv6Groups(text: string): number[] | null {
  if (!text.includes(':')) return null;
  let rest = text.replace(/%.*$/, '');
  // A trailing dotted quad (::ffff:127.0.0.1) is the last two groups.
  const quad = rest.match(/:(\d{1,3}(?:\.\d{1,3}){3})$/)?.[1];
  if (quad) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(quad) ?? [];
    if (!ipv4Bytes(quad)) return null;
    rest = `${rest.slice(0, -quad.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(':') : []);
  const head = parse(halves[0]);
  const after = parse(halves[1]);
  if (![...head, ...after].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const given = head.length + after.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const zeros = Array.from({ length: 8 - given }, () => 0);
  return [...head, ...zeros.map(String), ...after].map((g) => Number.parseInt(g, 16));
}

/**
 * True for an address a webhook must never reach in production: unspecified (0.0.0.0/8, ::), loopback
 * (127/8, ::1), private (10/8, 172.16/12, 192.168/16, 100.64/10 shared, fc00::/7), link-local
 * (169.254/16, fe80::/10), multicast and reserved (224/3, ff00::/8), and those inside IPv6's
 * IPv4-mapped, -compatible and NAT64 forms (::ffff:127.0.0.1). False for a public address or for
 * text that is not an address.
 */
export function isNonPublicAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  const v4 = ipv4Bytes(text);
  if (v4) return isNonPublicIpv4(v4);
  const g = ipv6Groups(text);
  if (!g) return false;
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g6 = 0, h = 0] = g;
  const embedded = [g6 >> 8, g6 & 255, h >> 8, h & 255];
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, and :: and ::1 themselves), 64:ff9b::a.b.c.d (NAT64).
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && (f === 0xffff || f === 0)) {
    if (f === 0 && g6 === 0) return true; // :: and ::1
    return isNonPublicIpv4(embedded);
  }
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return isNonPublicIpv4(embedded);
  if ((a & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((a & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((a & 0xffc0) === 0xfec0) return true; // fec0::/10 old site-local
  if ((a & 0xff00) === 0xff00) return true; // multicast
  return false;
}

function isNonPublicIpv4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

/** GET /api/webhook-secret and POST /api/webhook-secret/rotate: the account's signing secret (`whsec_` + base64). */
export const WEBHOOK_SECRET = z.object({ secret: z.string() });
export type WebhookSecret = z.infer<typeof WEBHOOK_SECRET>;

export const WEBHOOK_EVENT_TYPES = ['job.succeeded', 'job.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A delivery's state on its job (api-response-schemas.ts, where JOB_DETAIL carries it). */
export { WEBHOOK_DELIVERY, WEBHOOK_DELIVERY_STATUSES, type WebhookDelivery } from './api-response-schemas';

/** The ended job in an event: the job as GET /api/jobs/:id answers it for its owner, without its delivery. */
const WEBHOOK_JOB = JOB_DETAIL.omit({ webhook: true }).extend({ status: z.enum(['succeeded', 'failed']) });

/**
 * The body of a delivery: `type` says how the job ended (a failed job's cost is already refunded),
 * `timestamp` is when it ended (ISO 8601; the same on every try), `data` the job.
 */
export const WEBHOOK_EVENT = z.object({
  type: z.enum(WEBHOOK_EVENT_TYPES),
  timestamp: z.string(),
  data: WEBHOOK_JOB,
});
export type WebhookEvent = z.infer<typeof WEBHOOK_EVENT>;
