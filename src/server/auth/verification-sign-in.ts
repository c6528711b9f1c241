// The verification link signs in the browser that opens it (the spec's flow: the link lands on
// Text to Pic, signed in), but never in place of another account. better-auth's own
// autoSignInAfterVerification replaces whatever session the browser holds, so anyone could swap a
// victim's session for their own by sending the link of their own unverified account. It is off;
// this after-hook signs in only a browser without a session, and tells a browser signed in as
// someone else whose address was verified (it stays signed in as itself). The browser of the account
// itself lands with ?emailVerified=1, for the page to confirm it.
import { createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import type { User } from 'better-auth/types';
import { EMAIL_VERIFIED_PARAM, VERIFIED_EMAIL_PARAM } from '../../contract/accounts';
import { changeClaims } from './email-change';

/** Who a /verify-email request has just verified (set by better-auth's afterEmailVerification). */
const verifiedBy = new WeakMap<Request, User>();

export async function rememberVerifiedUser(user: User, request?: Request) {
  if (request) verifiedBy.set(request, user);
}

function withParam(location: string, name: string, value: string) {
  return `${location}${location.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;
}

export const signInAfterVerification = createAuthMiddleware(async (ctx) => {
  if (ctx.path !== '/verify-email' || !ctx.request) return;
  const verified = verifiedBy.get(ctx.request);
  if (!verified) return; // a bad or expired link, or an address verified before: nothing changes
  const current = await getSessionFromCtx(ctx);
  const location = ctx.context.responseHeaders?.get('location');
  // The page the link lands on says "Email verified" (an email change's link: User Settings says
  // how the change went instead).
  const landing =
    location && !changeClaims(ctx.query?.token)?.updateTo ? withParam(location, EMAIL_VERIFIED_PARAM, '1') : null;
  if (!current) {
    const session = await ctx.context.internalAdapter.createSession(verified.id);
    await setSessionCookie(ctx, { session, user: verified });
    if (landing) throw ctx.redirect(landing);
    return;
  }
  if (current.user.id === verified.id) {
    if (landing) throw ctx.redirect(landing);
    return;
  }
  if (location) throw ctx.redirect(withParam(location, VERIFIED_EMAIL_PARAM, verified.email));
});
