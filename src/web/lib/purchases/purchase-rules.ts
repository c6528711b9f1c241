// Who may buy tokens (product-spec.md section 5): signed in, email verified, no dispute, no fraud flag.
import type { Profile } from '../../../contract/accounts';
import { PURCHASE_MESSAGES } from '../../../contract/packages';
import type { AuthStatus } from '../session/auth-context';

export type PurchaseAccess = 'loading' | 'signed-out' | 'unverified' | 'fraud' | 'dispute' | 'allowed';

export function purchaseAccess(status: AuthStatus, profile: Profile | null): PurchaseAccess {
  if (status === 'loading') return 'loading';
  if (status === 'signed-out') return 'signed-out';
  // Signed in but the profile is not readable yet: nothing can be decided.
  if (!profile) return 'loading';
  if (!profile.emailVerified) return 'unverified';
  // As on the tool pages, the fraud flag takes priority over the dispute flag.
  if (profile.isFraudulent) return 'fraud';
  if (profile.isDispute) return 'dispute';
  return 'allowed';
}

/** The message under the package cards, if any. */
export function purchaseNote(access: PurchaseAccess): string | null {
  if (access === 'unverified') return PURCHASE_MESSAGES.verifyNote;
  if (access === 'fraud') return PURCHASE_MESSAGES.fraudNote;
  if (access === 'dispute') return PURCHASE_MESSAGES.disputeNote;
  return null;
}

/** The alert a Buy Tokens click shows, if any. */
export function purchaseAlert(access: PurchaseAccess): string | null {
  if (access === 'unverified') return PURCHASE_MESSAGES.verifyAlert;
  if (access === 'fraud' || access === 'dispute') return PURCHASE_MESSAGES.blockedAlert;
  return null;
}
