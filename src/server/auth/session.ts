// The signed-in user of a request. Every API call asks this, so the common case is one indexed
// statement: the signed session cookie is checked here (the same HMAC better-auth signs it with)
// and the session is read joined with its user. better-auth's own getSession (two lookups, webcrypto,
// about 1.5 ms of CPU) still handles what it must do itself: a session due for its sliding
// refresh (it writes the new expiry) and an expired one (it deletes it). Revocation stays
// immediate: a deleted session row is a signed-out request on the next call.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, executePrepared } from '../db/client';

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

/** The session's row joined with its user: what every session statement answers (and may add to). */
export type SessionRow = { id: string; email: string; email_verified: boolean; expires_at: string | Date };

/**
 * A statement that reads the session row of `token` with more that the caller needs in the same
 * round trip (jobs/request/tool-call-limit.ts counts the call and reads the caller's profile with it).
 * It runs before the session is judged, so what it writes must be harmless for an expired session.
 */
export type SessionStatement<T extends SessionRow> = (token: string) => Promise<T | null>;

export type SessionReader = {
  (headers: Headers): Promise<SessionUser | null>;
  /** The user and the row `statement` read (the session statement's answer), or null: signed out. */
  with<T extends SessionRow>(
    headers: Headers,
    statement: SessionStatement<T>,
  ): Promise<{ user: SessionUser; row: T } | null>;
};

/** The session of `token` joined with its user, in the `SessionRow` shape (also a CTE of larger statements). */
export const sessionWithUserSql = (token: string): SQL =>
  sql`select u.id, u.email, u.email_verified, s.expires_at
    from session s join "user" u on u.id = s.user_id where s.token = ${token}`;

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
    const cookies = headers.get('cookie');
    if (!cookies) return null;
    const { secret, authCookies, sessionConfig } = await auth.$context;
    const token = verifiedCookieValue(cookies, authCookies.sessionToken.name, secret);
    if (!token) return null;
    const row = await statement(token);
    if (!row) return null;
    const expiresAt = new Date(row.expires_at).getTime();
    // Expired (better-auth deletes it) or due for the sliding refresh (better-auth extends it):
    // both are writes better-auth owns. A "don't remember me" session is never refreshed.
    const refreshDue = expiresAt - sessionConfig.expiresIn * 1000 + sessionConfig.updateAge * 1000 <= Date.now();
    const remembered = !cookieValue(cookies, authCookies.dontRememberToken.name);
    if (expiresAt <= Date.now() || (refreshDue && remembered)) {
      const user = await slowPath(headers);
      return user && user.id === row.id ? { user, row } : null;
    }
    return { user: { id: row.id, email: row.email, emailVerified: row.email_verified === true }, row };
  };
  const sessionOnly: SessionStatement<SessionRow> = async (token) =>
    ((await executePrepared(database.db, sessionWithUserSql(token))).rows[0] as SessionRow | undefined) ?? null;
  const reader = async (headers: Headers) => (await readWith(headers, sessionOnly))?.user ?? null;
  return Object.assign(reader, { with: readWith });
}

/** The signed-in user of a request, or null (from the session cookie, checked in the database). */
export function sessionUser(auth: { readSessionUser: SessionReader }, headers: Headers): Promise<SessionUser | null> {
  return auth.readSessionUser(headers);
}
