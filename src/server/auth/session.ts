import type { Auth } from './auth';

export type SessionUser = { id: string; email: string; emailVerified: boolean };

/** The signed-in user of a request, or null (from the session cookie, checked in the database). */
export async function sessionUser(auth: Auth, headers: Headers): Promise<SessionUser | null> {
  const session = await auth.api.getSession({ headers });
  return session ? { id: session.user.id, email: session.user.email, emailVerified: session.user.emailVerified } : null;
}
