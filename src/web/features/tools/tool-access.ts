import type { Profile } from '../../../contract/accounts';
import { TOOL_MESSAGES } from '../../../contract/tools';
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

/** The spec's words for an account that may not use the tools (section 8's banners), or null. */
export function accountProblem(access: Access): string | null {
  if (access === 'fraud') return TOOL_MESSAGES.fraud;
  if (access === 'dispute') return TOOL_MESSAGES.dispute;
  if (access === 'unverified') return TOOL_MESSAGES.unverified;
  return null;
}
