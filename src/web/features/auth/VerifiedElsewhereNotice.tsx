import { CircleCheck } from 'lucide-react';
import { ACCOUNT_MESSAGES, VERIFIED_EMAIL_PARAM } from '../../../contract/accounts';
import { useSearchParams } from '../../lib/router';
import { useAuth } from '../../lib/session/auth-context';

/** Only something shaped like an address is echoed: the parameter is in a URL anyone can write. */
const looksLikeAddress = (value: string | null): value is string =>
  value !== null && value.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(value);

/**
 * A verification link opened in a browser signed in as someone else verifies that address but
 * keeps this browser's session (the server adds ?verifiedEmail=): say so, so nobody wonders
 * why the account did not change.
 */
export function VerifiedElsewhereNotice() {
  const [params] = useSearchParams();
  const { status, user } = useAuth();
  const verifiedEmail = params.get(VERIFIED_EMAIL_PARAM);
  if (status !== 'signed-in' || !user || !looksLikeAddress(verifiedEmail) || verifiedEmail === user.email) return null;
  return (
    <p className="pp-notice pp-layout-notice" role="status" data-testid="verified-elsewhere">
      <CircleCheck className="pp-notice__icon" size={18} aria-hidden="true" />
      <span>{ACCOUNT_MESSAGES.verifiedOtherAccount(verifiedEmail, user.email)}</span>
    </p>
  );
}
