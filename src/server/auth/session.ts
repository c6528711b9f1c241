// The signed-in user of a request. Every API call asks this, so the common case is one indexed
// statement: the signed session cookie is checked here (the same HMAC better-auth signs it with)
// and the session is read joined with its user. better-auth's own getSession (two lookups, webcrypto,
// about 1.5 ms of CPU) still handles what it must do itself: a session due for its sliding
// refresh (it writes the new expiry) and an expired one (it deletes it). Revocation stays
// immediate: a deleted session row is a signed-out request on the next call.
//
// A request with `Authorization: Bearer pp_...` (an API key, issue 39) is read the same way, by the
// key's hash instead of the session's token: the key alone says who calls (cookies are ignored),
// and a deleted key is refused on the next request in every process (no cache).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { type Database, executePrepared } from '../db/client';
import { type RateWindow, windowOfSession } from '../rate-limit/tool-call-window';
import { type BearerCredential, bearerCredential } from './api-key-credential';

export type SessionUser = { id: string; email: string; emailVerified: boolean };

/** What the fast path needs of better-auth: its secret, cookie names, session timing, and its getSession. */
export type SessionAuthority = {
  $context: Promise<{
    secret: string;
    authCookies: { sessionToken: { name: string }; dontRememberToken: { name: string } };
    sessionConfig: { expiresIn: number; updateAge: number };
  }>;
  api: {
    getSession(input: { headers: Headers }): Promise<{
      user: { id: string; email: string; emailVerified: boolean };
    } | null>;
  };
};

/** The session's (or key's) row joined with its user: what every session statement answers (and may add to). */
export type SessionRow = {
  id: string;
  email: string;
  email_verified: boolean;
  /** The session's expiry; null for an API key (a key lasts until it is revoked). */
  expires_at: string | Date | null;
};

/**
 * Who a request is, as the SQL common table expressions that define `sess` (a `SessionRow`, no row
 * when nobody): the session of a cookie's token, or the owner of an API key's hash. A statement
 * begins `with ${who}, ...` and reads `sess`, so the session and the key share the rest of it.
 */
export type Who = SQL;

/**
 * A statement that reads `sess` with more that the caller needs in the same round trip
 * (jobs/request/tool-call-limit.ts counts the call and reads the caller's profile with it).
 * It runs before the session is judged, so what it writes must be harmless for an expired session.
 */
export type SessionStatement<T extends SessionRow> = (who: Who) => Promise<T | null>;

/** Who a request is; for an API key also its owner's window of tool calls, read in the same statement. */
export type SessionRead = { user: SessionUser; keyWindow?: RateWindow };

export type SessionReader = {
  (headers: Headers): Promise<SessionRead | null>;
  /** The user and the row `statement` read (the session statement's answer), or null: signed out. */
  with<T extends SessionRow>(
    headers: Headers,
    statement: SessionStatement<T>,
  ): Promise<{ user: SessionUser; row: T } | null>;
};

/** `sess`: the session of `token` joined with its user. */
export const sessionWho = (token: string): Who =>
  sql`sess as (select u.id, u.email, u.email_verified, s.expires_at
    from session s join "user" u on u.id = s.user_id where s.token = ${token})`;

/** How often a key's last use is written: at most once a minute, not on every call. */
export const KEY_LAST_USED_RESOLUTION_SECONDS = 60;

/**
 * `sess`: the owner of the key whose SHA-256 is `keyHash`, and `key_used`, which writes the key's
 * last use when the one kept is a minute old or more (a data-modifying CTE runs whether or not the
 * statement reads it; it writes nothing on most calls).
 */
export const apiKeyWho = (keyHash: string): Who =>
  sql`sess as (select u.id, u.email, u.email_verified, null::timestamptz as expires_at
    from api_keys k join "user" u on u.id = k.user_id where k.key_hash = ${keyHash}),
  key_used as (update api_keys set last_used_at = now()
    where key_hash = ${keyHash}
      and (last_used_at is null
        or last_used_at <= now() - make_interval(secs => ${KEY_LAST_USED_RESOLUTION_SECONDS}))
    returning id)`;

/** better-call's signed cookie: `<value>.<base64 HMAC-SHA256 of value>`, URI-encoded. */
function verifiedCookieValue(cookieHeader: string, name: string, secret: string): string | null {
  const raw = cookieValue(cookieHeader, name);
  if (!raw) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const signed = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', secret).update(signed).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? signed : null;
}

function cookieValue(cookieHeader: string, name: string): string | null {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

type WindowColumns = { window_count: number | string | null; window_start: number | string | null };

const userOf = (row: SessionRow): SessionUser => ({
  id: row.id,
  email: row.email,
  emailVerified: row.email_verified === true,
});

export function createSessionReader(auth: SessionAuthority, database: Pick<Database, 'db'>): SessionReader {
  const slowPath = async (headers: Headers): Promise<SessionUser | null> => {
    const session = await auth.api.getSession({ headers });
    return session
      ? { id: session.user.id, email: session.user.email, emailVerified: session.user.emailVerified }
      : null;
  };
  const readWith = async <T extends SessionRow>(
    headers: Headers,
    statement: SessionStatement<T>,
  ): Promise<{ user: SessionUser; row: T } | null> => {
    const bearer = bearerCredential(headers);
    if (bearer) return readWithKey(bearer, statement);
    const cookies = headers.get('cookie');
    if (!cookies) return null;
    const { secret, authCookies, sessionConfig } = await auth.$context;
    const token = verifiedCookieValue(cookies, authCookies.sessionToken.name, secret);
    if (!token) return null;
    const row = await statement(sessionWho(token));
    if (!row?.expires_at) return null;
    const expiresAt = new Date(row.expires_at).getTime();
    // Expired (better-auth deletes it) or due for the sliding refresh (better-auth extends it):
    // both are writes better-auth owns. A "don't remember me" session is never refreshed.
    const refreshDue = expiresAt - sessionConfig.expiresIn * 1000 + sessionConfig.updateAge * 1000 <= Date.now();
    const remembered = !cookieValue(cookies, authCookies.dontRememberToken.name);
    if (expiresAt <= Date.now() || (refreshDue && remembered)) {
      const user = await slowPath(headers);
      return user && user.id === row.id ? { user, row } : null;
    }
    return { user: userOf(row), row };
  };
  /** A key is judged by its row alone: it has no expiry; a revoked one has no row. */
  const readWithKey = async <T extends SessionRow>(
    bearer: BearerCredential,
    statement: SessionStatement<T>,
  ): Promise<{ user: SessionUser; row: T } | null> => {
    if (bearer.kind === 'malformed') return null;
    const row = await statement(apiKeyWho(bearer.keyHash));
    return row ? { user: userOf(row), row } : null;
  };
  const sessionOnly: SessionStatement<SessionRow> = async (who) =>
    ((await executePrepared(database.db, sql`with ${who} select * from sess`)).rows[0] as SessionRow | undefined) ??
    null;
  // A key's reads answer the account's RateLimit headers (api-keys/key-gate.ts): its window is
  // read with the key's owner, in the same statement.
  const keyOwnerWithWindow: SessionStatement<SessionRow & WindowColumns> = async (who) =>
    ((
      await executePrepared(
        database.db,
        sql`with ${who} select sess.*, r.count as window_count, r.last_request as window_start
          from sess ${windowOfSession}`,
      )
    ).rows[0] as (SessionRow & WindowColumns) | undefined) ?? null;
  const reader = async (headers: Headers): Promise<SessionRead | null> => {
    if (!bearerCredential(headers)) {
      const read = await readWith(headers, sessionOnly);
      return read && { user: read.user };
    }
    const read = await readWith(headers, keyOwnerWithWindow);
    if (!read) return null;
    const { window_count: count, window_start: start } = read.row;
    return { user: read.user, keyWindow: start === null ? null : { count: Number(count), windowStart: Number(start) } };
  };
  return Object.assign(reader, { with: readWith });
}

/**
 * The signed-in user of a request, or null (from the session cookie or an API key, checked in the
 * database). A key's read leaves its owner's window in the request's context (`keyRateWindow`) for
 * the RateLimit headers of its answer (api-keys/key-gate.ts).
 */
export async function sessionUser(auth: { readSessionUser: SessionReader }, c: Context): Promise<SessionUser | null> {
  const read = await auth.readSessionUser(c.req.raw.headers);
  if (read && read.keyWindow !== undefined) c.set('keyRateWindow', { window: read.keyWindow });
  return read?.user ?? null;
}
