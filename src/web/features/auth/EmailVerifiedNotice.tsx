import { CircleCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ACCOUNT_MESSAGES, EMAIL_VERIFIED_PARAM } from '../../../contract/accounts';
import { useLocation, useSearchParams } from '../../lib/router';
import { useAuth } from '../../lib/session/auth-context';

/**
 * The verification link's landing: the server adds ?emailVerified=1 when the link has just verified
 * this browser's account (auth/verification-sign-in.ts). The page says so, and the flag leaves the
 * address at once, so a reload or a bookmark does not say it again; the notice stays on that page
 * until the user moves on. It says nothing to an account the session does not call verified.
 */
export function EmailVerifiedNotice() {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const { status, user } = useAuth();
  const flagged = params.has(EMAIL_VERIFIED_PARAM);
  /** The page the link landed on, once the flag has been read. */
  const [landedOn, setLandedOn] = useState<string | null>(null);

  useEffect(() => {
    if (!flagged) return;
    setLandedOn(pathname);
    setParams(
      (current) => {
        current.delete(EMAIL_VERIFIED_PARAM);
        return current;
      },
      { replace: true },
    );
  }, [flagged, pathname, setParams]);

  // Another page: the notice has been seen, and coming back does not bring it again.
  useEffect(() => {
    if (landedOn !== null && landedOn !== pathname) setLandedOn(null);
  }, [landedOn, pathname]);

  const shown = flagged || landedOn === pathname;
  if (!shown || status !== 'signed-in' || !user?.emailVerified) return null;
  return (
    <p className="pp-notice pp-layout-notice" role="status" data-testid="email-verified">
      <CircleCheck className="pp-notice__icon" size={18} aria-hidden="true" />
      <span>{ACCOUNT_MESSAGES.emailVerified}</span>
    </p>
  );
}
