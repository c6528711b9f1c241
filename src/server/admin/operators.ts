// Who is an operator (issue 57, decision 078): a verified account whose email is in ADMIN_EMAILS,
// signed in with the website's session. The list is the configuration's, read on every request, so
// removing an address (and restarting) ends that operator's access; nothing about it is stored.
import type { SessionUser } from '../auth/session';
import type { Operator } from './audit';

/** The operator a signed-in user is, or null. `adminEmails` are lower-cased (config.ts). */
export function operatorOf(adminEmails: readonly string[], current: SessionUser | null): Operator | null {
  if (!current?.emailVerified || !adminEmails.includes(current.email.toLowerCase())) return null;
  return { id: current.id, name: current.email };
}
