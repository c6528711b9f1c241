import type { Profile } from '../../../contract/accounts';
import type { AuthStatus } from '../../lib/session/auth-context';

/**
 * Where the signed-in state leaves a tool page (product-spec.md section 4): the fraud flag takes
 * priority over the dispute flag, both over verification. 'unknown': still checking, or signed in
 * with a profile that cannot be read right now.
 */
export type Access = 'unknown' | 'signed-out' | 'fraud' | 'dispute' | 'unverified' | 'ready';

export function accessOf(status: AuthStatus, profile: Profile | null): Access {
  if (status === 'signed-out') return 'signed-out';
  if (status === 'loading' || !profile) return 'unknown';
  if (profile.isFraudulent) return 'fraud';
  if (profile.isDispute) return 'dispute';
  if (!profile.emailVerified) return 'unverified';
  return 'ready';
}
