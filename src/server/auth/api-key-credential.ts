// API keys as a credential: how one is made, what is kept of it, and how a request carries one.
// A key is `pp_` and 32 random bytes (base64url); the database keeps only its SHA-256, so a
// leaked table holds no usable key, and the first characters, so a user can tell keys apart.
// Here in auth/ beside the cookie's check (session.ts reads both); api-keys/ (the routes, the
// repository, the gate) and the Origin check sit above it.
import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX, API_KEY_SHOWN_CHARACTERS } from '../../contract/api-keys';

const KEY_RANDOM_BYTES = 32;
/** `pp_` then 43 base64url characters: anything else cannot be a key (no database look-up). */
const KEY_SHAPE = /^pp_[A-Za-z0-9_-]{43}$/;

export type NewApiKey = { key: string; keyHash: string; prefix: string };

export function newApiKey(): NewApiKey {
  const key = `${API_KEY_PREFIX}${randomBytes(KEY_RANDOM_BYTES).toString('base64url')}`;
  return { key, keyHash: hashApiKey(key), prefix: key.slice(0, API_KEY_SHOWN_CHARACTERS) };
}

/** SHA-256, hex: a key has 256 random bits, so a fast hash is enough (no password stretching). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What an `Authorization: Bearer ...` header carries: a key's hash, or something that is no key. */
export type BearerCredential = { kind: 'key'; keyHash: string } | { kind: 'malformed' };

/** The request's bearer credential, or null when it has none (then cookies say who calls). */
export function bearerCredential(headers: Headers): BearerCredential | null {
  const header = headers.get('authorization');
  if (header === null) return null;
  const match = /^bearer(?:\s+(.*))?$/is.exec(header.trim());
  if (!match) return null;
  const token = (match[1] ?? '').trim();
  return KEY_SHAPE.test(token) ? { kind: 'key', keyHash: hashApiKey(token) } : { kind: 'malformed' };
}

export const hasBearerCredential = (headers: Headers): boolean => bearerCredential(headers) !== null;
