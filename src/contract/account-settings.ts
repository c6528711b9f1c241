// The sentences the account-settings routes answer with and the settings page shows: a module of
// their own so that they load with the settings page, not with every page (the landing's budget).
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './accounts';

/** The sentences the account routes answer with, and the settings page shows. */
export const SETTINGS_MESSAGES = {
  confirmWithPassword: (action: string) => `To ${action}, confirm it’s you: enter your password.`,
  confirmWithGoogle: (action: string) => `To ${action}, confirm it’s you: sign in with Google again.`,
  wrongPassword: 'That password is not the one on your account. Check it and try again.',
  noPasswordToCheck: 'Your account has no password yet. Confirm it’s you by signing in with Google again.',
  nameEmpty: 'Please enter a name.',
  nameControl: 'Your name can’t contain line breaks, tabs or other control characters.',
  emailInvalid: 'Please enter a valid email address, like name@example.com.',
  emailSame: 'That is already your email address.',
  emailTaken: 'That email address belongs to another account. Please use a different one.',
  /** The link of an email change, opened after the new address became another account's. */
  emailTakenMeanwhile:
    'Your email was not changed: that address now belongs to another account. Ask for a change to a different one below.',
  emailChangeSent: (newEmail: string) =>
    `We sent a link to ${newEmail}. Your email changes once you open it (within an hour).`,
  passwordTooShort: `Your new password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
  passwordTooLong: `Your new password can be at most ${PASSWORD_MAX_LENGTH} characters long.`,
  passwordAlreadySet: 'Your account already has a password. Change it with your current password instead.',
  currentPasswordWrong: 'Your current password is not right. Check it and try again.',
} as const;
