// Accounts: what the server answers about the signed-in user, and the messages both sides show.
// Plain types and constants only: the browser imports this module, and a schema library here
// would land in every page's JavaScript (the profile's type is its schema's, imported as a type only).
import type { z } from 'zod';
import type * as schemas from './api-response-schemas';

/** New users get 20 tokens (product-spec.md section 9). */
export const SIGNUP_TOKENS = 20;

/** Verify-email resend cooldown (product-spec.md section 9), enforced by the server. */
export const VERIFICATION_RESEND_COOLDOWN_SECONDS = 60;

/** The shortest password the server accepts (the sign-in form says so up front). */
export const PASSWORD_MIN_LENGTH = 8;

/** The longest user name the server keeps (sign-up and update-user answer 400 above it). */
export const NAME_MAX_LENGTH = 100;

/**
 * Added to the verification link's landing page when the link verified an account other than the
 * one the browser is signed in as: the browser keeps its session, and the page says whose address
 * was verified.
 */
export const VERIFIED_EMAIL_PARAM = 'verifiedEmail';

/**
 * Added to the verification link's landing page when the link has just verified the account the
 * browser is (or is now) signed in as: the page says "Email verified", then drops it from the address.
 */
export const EMAIL_VERIFIED_PARAM = 'emailVerified';

/** The spec's user profile (section 3), as GET /api/profile returns it for the session user. */
export type Profile = z.output<typeof schemas.PROFILE>;

/** GET /api/config: what this server offers, so the UI can explain what is not configured. */
export type PublicConfig = {
  googleSignIn: boolean;
  /** Where development mail can be read (the local outbox), or null with a real mailer. */
  devMailUrl: string | null;
  /** The support address (SUPPORT_EMAIL) "Please contact support" links to, or null when it is not set. */
  supportEmail: string | null;
};

/** POST /api/profile/verification-email: 200 with this body, or 429 with it plus `error`. */
export type VerificationEmailResult = { retryAfterSeconds: number };

export const ACCOUNT_API = {
  profile: '/api/profile',
  verificationEmail: '/api/profile/verification-email',
  config: '/api/config',
  /** GET: the account's details (AccountDetails); DELETE: the account, with {password} when asked. */
  account: '/api/account',
  /** POST {newEmail, password?}: a link to the new address; the change takes effect when it is opened. */
  accountEmail: '/api/account/email',
  /** POST {newPassword}: a first password for an account without one (Google-only). */
  accountPassword: '/api/account/password',
} as const;

/** GET /api/account: what User Settings shows and lets the user change. */
export type AccountDetails = {
  name: string;
  email: string;
  emailVerified: boolean;
  /** Signs in with a password (false: Google only, until a password is set). */
  hasPassword: boolean;
  hasGoogle: boolean;
};

/**
 * How a user confirms it is them before deleting the account, changing the email or setting a first
 * password, when the session is not recent (FRESH_SIGN_IN_MINUTES): with the password, or (no
 * password) by signing in with Google again. A 403 of those routes carries it as `reauth`.
 */
export type Reauth = 'password' | 'google';

/** A 403 of a route that needs a recent sign-in or the password. */
export type ReauthRequired = { error: string; reauth: Reauth };

/** How recent a sign-in must be to delete, change the email or set a first password without the password. */
export const FRESH_SIGN_IN_MINUTES = 10;

/** The longest password the server accepts (better-auth's maxPasswordLength). */
export const PASSWORD_MAX_LENGTH = 128;

/** Where a link of an email change lands (better-auth adds `error` when the link is bad or expired). */
export const EMAIL_CHANGED_PARAM = 'emailChanged';
/** The `error` of that landing when the new address became another account's before the link was opened. */
export const EMAIL_TAKEN_ERROR = 'EMAIL_TAKEN';

/** Pages outside the spec's list that accounts need (the spec does not show them). */
export const ACCOUNT_ROUTES = {
  /** The link in the password-reset mail lands here (with ?token=...). */
  resetPassword: '/reset-password',
  /** The Google popup ends here and tells its opener. */
  googlePopupDone: '/auth/popup-done.html',
  /** Where the page goes once the account is deleted: it says so, signed out. */
  accountDeleted: '/account-deleted',
} as const;

/** Exact strings of product-spec.md section 8 (and the success texts it does not show). */
export const ACCOUNT_MESSAGES = {
  emailInUse: 'Please try signing in or reset your password.',
  invalidSignIn: 'Invalid email or password. Please try again.',
  resetFailed: 'Failed to send password reset email. Please try again.',
  resetSent: 'Password reset email sent. Check your inbox for the link.',
  googleNotConfigured: 'Google sign-in is not configured on this server.',
  signInRequired: 'Please sign in.',
  alreadyVerified: 'Your email is already verified.',
  nameTooLong: `Name must be at most ${NAME_MAX_LENGTH} characters.`,
  nameUnstorable:
    'Name contains characters that cannot be stored (a control character such as NUL, or a broken Unicode character).',
  imageRefused: 'Image must be one of your files here (/api/files/<id>), or none.',
  /** The verification link's landing page, once the link has verified this browser's account. */
  emailVerified: 'Email verified. Thank you: every tool is open to you now.',
  verifiedOtherAccount: (verifiedEmail: string, currentEmail: string) =>
    `Email verified for ${verifiedEmail}. You are still signed in as ${currentEmail}.`,
  resendTooSoon: (seconds: number) =>
    `Please wait ${seconds} second${seconds === 1 ? '' : 's'} before requesting another email.`,
} as const;
