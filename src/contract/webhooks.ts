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
    `The webhook URL’s host ${host} is a local, private or reserved address; use an address reachable from the internet.`,
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
 * What production adds to a webhook URL of the right shape (WEBHOOK_URL): https only, and a host
 * that is either a globally routable address (not in a special-purpose range: specialPurposeRangeOf)
 * or a name that does not name this machine or a private network (`localhost`, `.local`,
 * `.internal`, a name without a dot). A name is not resolved here: the delivery judges the
 * addresses it resolves to, at each try. Outside production anything of the right shape is taken
 * (http on 127.0.0.1 for tests and development). Null: accepted.
 */
export function webhookUrlRefusal(value: string, { production }: { production: boolean }): string | null {
  const shape = webhookUrlShapeProblem(value);
  if (shape || !production) return shape;
  const url = new URL(value);
  if (url.protocol !== 'https:') return WEBHOOK_MESSAGES.httpsOnly;
  // The URL parser has already written an IPv4 host as a dotted quad (2130706433 and 0x7f.1 too)
  // and an IPv6 host in brackets, lower case.
  const host = url.hostname.replace(/\.$/, '');
  const refused = ipAddressBytes(host) ? isNonPublicAddress(host) : isLocalName(host);
  return refused ? WEBHOOK_MESSAGES.privateHost(url.hostname) : null;
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
 * An IP address as its bytes: 4 for IPv4 (a dotted quad), 16 for IPv6 (brackets and a zone index
 * ignored); null when `text` is not an address.
 */
export function ipAddressBytes(text: string): number[] | null {
  const bare = text.replace(/^\[|\]$/g, '');
  return ipv4Bytes(bare) ?? ipv6Groups(bare)?.flatMap((group) => [group >> 8, group & 255]) ?? null;
}

/**
 * One spelling per address, to compare two: an IPv4-mapped IPv6 address (::ffff:a.b.c.d) is its
 * IPv4 address, as a socket to either reaches the same host. Null when `text` is not an address.
 */
export function canonicalAddress(text: string): string | null {
  const bytes = ipAddressBytes(text);
  if (!bytes) return null;
  const mapped = bytes.length === 16 && inRange(bytes, IPV4_MAPPED);
  return mapped || bytes.length === 4 ? bytes.slice(-4).join('.') : bytes.map((b) => b.toString(16)).join(':');
}

/** A range of addresses (`cidr`), as the registry names it; `ipv4At`: where an IPv6 form carries an IPv4 address. */
type AddressRange = { cidr: string; name: string; prefix: number[]; bits: number; ipv4At?: number };

function range(cidr: string, name: string, ipv4At?: number): AddressRange {
  const [address = '', bits = ''] = cidr.split('/');
  const prefix = ipAddressBytes(address);
  if (!prefix) throw new Error(`Not an address range: ${cidr}`);
  return { cidr, name, prefix, bits: Number(bits), ...(ipv4At === undefined ? {} : { ipv4At }) };
}

function inRange(bytes: number[], { prefix, bits }: AddressRange): boolean {
  if (bytes.length !== prefix.length) return false;
  for (let i = 0; i * 8 < bits; i++) {
    const mask = (0xff << (8 - Math.min(8, bits - i * 8))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * IANA's IPv4 Special-Purpose Address Registry, whole
 * (https://www.iana.org/assignments/iana-ipv4-special-registry, RFC 6890 and its updates), and
 * multicast (224.0.0.0/4, RFC 5771): no webhook goes to any of them. The registry's few entries
 * marked globally reachable (AS112 and AMT anycast, 192.0.0.9 and 192.0.0.10 inside 192.0.0.0/24)
 * are refused too: no webhook receiver lives there.
 */
export const IPV4_SPECIAL_PURPOSE_RANGES: readonly AddressRange[] = [
  range('0.0.0.0/8', '"this network"'),
  range('10.0.0.0/8', 'private use'),
  range('100.64.0.0/10', 'shared address space (carrier-grade NAT)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link local'),
  range('172.16.0.0/12', 'private use'),
  range('192.0.0.0/24', 'IETF protocol assignments'),
  range('192.0.2.0/24', 'documentation (TEST-NET-1)'),
  range('192.31.196.0/24', 'AS112-v4'),
  range('192.52.193.0/24', 'AMT'),
  range('192.88.99.0/24', 'deprecated 6to4 relay anycast'),
  range('192.168.0.0/16', 'private use'),
  range('192.175.48.0/24', 'direct delegation AS112 service'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation (TEST-NET-2)'),
  range('203.0.113.0/24', 'documentation (TEST-NET-3)'),
  range('224.0.0.0/4', 'multicast'),
  range('255.255.255.255/32', 'limited broadcast'), // before 240.0.0.0/4, which holds it: the first match names it
  range('240.0.0.0/4', 'reserved'),
];

const IPV4_MAPPED = range('::ffff:0:0/96', 'IPv4-mapped', 12);

/**
 * IANA's IPv6 Special-Purpose Address Registry, whole
 * (https://www.iana.org/assignments/iana-ipv6-special-registry), and multicast (ff00::/8), first
 * match counts. The forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged by that
 * address. 2001::/23 is refused whole, with the registry's few exceptions inside it; so is the
 * local-use NAT64 prefix 64:ff9b:1::/48 (not globally reachable, its IPv4 address placed by each
 * network). Any address outside 2000::/3 (global unicast) is refused too.
 */
export const IPV6_SPECIAL_PURPOSE_RANGES: readonly AddressRange[] = [
  IPV4_MAPPED,
  range('64:ff9b::/96', 'IPv4-IPv6 translation (NAT64)', 12),
  range('2002::/16', '6to4', 2),
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('64:ff9b:1::/48', 'local-use IPv4-IPv6 translation'),
  range('100::/64', 'discard-only'),
  range('2001::/23', 'IETF protocol assignments (Teredo, benchmarking, ORCHID and others)'),
  range('2001:db8::/32', 'documentation'),
  range('2620:4f:8000::/48', 'direct delegation AS112 service'),
  range('3fff::/20', 'documentation'),
  range('5f00::/16', 'segment routing (SRv6) SIDs'),
  range('fc00::/7', 'unique local'),
  range('fe80::/10', 'link-local unicast'),
  range('ff00::/8', 'multicast'),
];

const IPV6_GLOBAL_UNICAST = range('2000::/3', 'global unicast');

/**
 * Why a webhook may never reach `address` in production: the special-purpose range it is in (e.g.
 * "198.18.0.0/15 benchmarking"; for an IPv6 form carrying an IPv4 address, both ranges), or null
 * for a globally routable unicast address, or for text that is not an address.
 */
export function specialPurposeRangeOf(address: string): string | null {
  const bytes = ipAddressBytes(address);
  if (!bytes) return null;
  const named = ({ cidr, name }: AddressRange) => `${cidr} ${name}`;
  if (bytes.length === 4) {
    const v4 = IPV4_SPECIAL_PURPOSE_RANGES.find((r) => inRange(bytes, r));
    return v4 ? named(v4) : null;
  }
  const v6 = IPV6_SPECIAL_PURPOSE_RANGES.find((r) => inRange(bytes, r));
  if (v6?.ipv4At !== undefined) {
    const carried = specialPurposeRangeOf(bytes.slice(v6.ipv4At, v6.ipv4At + 4).join('.'));
    return carried && `${named(v6)} carrying ${carried}`;
  }
  if (v6) return named(v6);
  return inRange(bytes, IPV6_GLOBAL_UNICAST) ? null : `outside ${named(IPV6_GLOBAL_UNICAST)}`;
}

/**
 * True for an address a webhook must never reach in production: any not globally routable unicast
 * (specialPurposeRangeOf). False for a public address, or for text that is not an address.
 */
export const isNonPublicAddress = (address: string): boolean => specialPurposeRangeOf(address) !== null;

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
