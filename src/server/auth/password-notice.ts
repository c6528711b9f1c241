// "Your password was changed" (issue 54): the account's address hears of every new password, as the
// old address hears of an email change (email-change.ts), so that someone who took the account over
// cannot also lock its owner out unnoticed. Three ways lead to a new password: User Settings'
// change (better-auth's /change-password, below), a reset link (better-auth's onPasswordReset, in
// auth.ts), and a first password for a Google-only account (POST /api/account/password).
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';
import { type PasswordChange, passwordChangedNotice } from '../mail/templates';

type MailDeps = { mailer: Mailer; logger: Logger; appUrl: string };

/** Mails the notice; a mail that fails is logged, and the password stays changed. */
export async function sendPasswordNotice(
  deps: MailDeps,
  user: { id: string; email: string },
  how: PasswordChange,
): Promise<void> {
  try {
    await deps.mailer.send(passwordChangedNotice({ to: user.email, url: deps.appUrl, how }));
  } catch (error) {
    deps.logger.error('the password change notice could not be sent', { userId: user.id, error });
  }
}

/** The notice after a change in User Settings that went through (not a wrong current password). */
export function passwordChangeNotice(deps: MailDeps): BetterAuthPlugin {
  return {
    id: 'password-change-notice',
    hooks: {
      after: [
        {
          matcher: (ctx) => ctx.path === '/change-password',
          handler: createAuthMiddleware(async (ctx) => {
            if (isAPIError(ctx.context.returned)) return;
            // The session read before the change (the change replaced it with a new one).
            const current = await getSessionFromCtx(ctx);
            if (current) await sendPasswordNotice(deps, current.user, 'changed');
          }),
        },
      ],
    },
  };
}
