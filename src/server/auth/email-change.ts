// Changing the sign-in email (issue 38) with better-auth's own flow: POST /api/account/email calls
// its changeEmail, which mails a link to the new address (sendChangeMail below); the address changes
// only when that link is opened (/verify-email), and the old address is then told (noticeOldAddress).
// Opening the link proves the new address, so it is verified from then on, whatever the old one was.
import type { GenericEndpointContext, User } from 'better-auth';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';
import { emailChangedNotice, emailChangeMail, verificationMail } from '../mail/templates';

/** What better-auth puts in the link of an email change (a JWT signed with our secret, checked by it). */
type ChangeClaims = { email: string; updateTo?: string; requestType?: string; userId?: string };

/**
 * The claims of a link's token, read without checking the signature: only to word a mail or a notice
 * about a change better-auth has already checked (or is about to send).
 */
export function changeClaims(token: unknown): ChangeClaims | null {
  if (typeof token !== 'string') return null;
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<ChangeClaims>;
    return typeof claims.email === 'string' ? (claims as ChangeClaims) : null;
  } catch {
    return null;
  }
}

type MailDeps = { mailer: Mailer; logger: Logger; appUrl: string };

/** better-auth's `emailVerification.sendVerificationEmail`: only the email change uses it here. */
export function sendChangeMail(deps: MailDeps) {
  return async ({ user, url, token }: { user: User; url: string; token: string }) => {
    const claims = changeClaims(token);
    if (claims?.updateTo) {
      await deps.mailer.send(emailChangeMail({ to: claims.updateTo, url, oldEmail: claims.email }));
      return;
    }
    // Not reached today (sign-up's mail goes out from the account setup), but a link is a link.
    await deps.mailer.send(verificationMail({ to: user.email, url }));
  };
}

/** The email change's link is being applied: the user writes the new address by opening it. */
function applyingChange(data: { email?: unknown }, context: GenericEndpointContext | null): ChangeClaims | null {
  if (typeof data.email !== 'string' || context?.path !== '/verify-email') return null;
  const claims = changeClaims(context.query?.token);
  return claims?.updateTo === data.email ? claims : null;
}

/** databaseHooks.user.update.before: the new address is verified by the link that sets it. */
export async function verifyChangedAddress(
  data: Partial<User> & Record<string, unknown>,
  context: GenericEndpointContext | null,
) {
  if (!applyingChange(data, context)) return;
  return { data: { ...data, emailVerified: true } };
}

/** databaseHooks.user.update.after: the old address hears that the account has moved. */
export function noticeOldAddress(deps: MailDeps) {
  return async (user: User & Record<string, unknown>, context: GenericEndpointContext | null) => {
    const claims = applyingChange(user, context);
    if (!claims || claims.email === user.email) return;
    try {
      await deps.mailer.send(emailChangedNotice({ to: claims.email, newEmail: user.email, url: deps.appUrl }));
    } catch (error) {
      deps.logger.error('the email change notice could not be sent', { userId: user.id, error });
    }
  };
}
