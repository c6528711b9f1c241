// Rules better-auth's endpoints do not enforce themselves, applied before they run (hooks.before).
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { SETTINGS_MESSAGES } from '../../contract/account-settings';
import {
  ACCOUNT_MESSAGES,
  EMAIL_TAKEN_ERROR,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '../../contract/accounts';
import { isStorableText, unstorableTextError, unstorableTextField } from '../../contract/text';
import { isUuid } from '../db/ids';
import { changeClaims } from './email-change';

/** The endpoints that write the user's name and image from the request body. */
const NAME_PATHS = new Set(['/sign-up/email', '/update-user']);

/**
 * A picture the user gives is none or a file of ours (`/api/files/<id>`, which answers its owner
 * only): any other value was stored as it came, a 900 kB string sent back in every session read,
 * an object as "[object Object]" (issue 36). Google's picture comes through the database hook.
 */
function imageAllowed(image: unknown) {
  if (image === undefined || image === null) return true;
  const fileId = typeof image === 'string' ? /^\/api\/files\/([^/]{36})$/.exec(image)?.[1] : undefined;
  return fileId !== undefined && isUuid(fileId);
}

/** Counted in characters (code points), so a name in any script gets the same allowance. */
function nameTooLong(name: unknown) {
  if (typeof name !== 'string' || name.length <= NAME_MAX_LENGTH) return false;
  return name.length > NAME_MAX_LENGTH * 2 || [...name].length > NAME_MAX_LENGTH;
}

/**
 * A name that did not come from the user's typing (Google's profile) is cut to the limit rather
 * than refused: the sign-in must not fail over it. Used by the user.create database hook.
 */
export function withNameInLimit<T extends { name: string }>(user: T): T {
  return nameTooLong(user.name) ? { ...user, name: [...user.name].slice(0, NAME_MAX_LENGTH).join('') } : user;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose
const ANY_CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;

/**
 * A name the user types in User Settings: trimmed, 1 to NAME_MAX_LENGTH characters, no control
 * character at all (a tab or a line break has no place in a name). Answers the name to store.
 */
function settingsName(name: unknown): string {
  if (typeof name !== 'string') throw bad('NAME_EMPTY', SETTINGS_MESSAGES.nameEmpty);
  const trimmed = name.trim();
  if (trimmed === '') throw bad('NAME_EMPTY', SETTINGS_MESSAGES.nameEmpty);
  if (nameTooLong(trimmed)) throw bad('NAME_TOO_LONG', ACCOUNT_MESSAGES.nameTooLong);
  if (!isStorableText(trimmed)) throw bad('NAME_UNSTORABLE', ACCOUNT_MESSAGES.nameUnstorable);
  if (ANY_CONTROL_CHARACTER.test(trimmed)) throw bad('NAME_CONTROL_CHARACTER', SETTINGS_MESSAGES.nameControl);
  return trimmed;
}

const bad = (code: string, message: string) => new APIError('BAD_REQUEST', { code, message });

/** Fields never stored as they come (passwords are hashed), or refused with their own sentence (names, below). */
const NOT_STORED_AS_TEXT = new Set(['password', 'newPassword', 'currentPassword', 'name']);

export const enforceRequestRules = createAuthMiddleware(async (ctx) => {
  // Text better-auth stores or looks up as it came (an email, a token): a NUL failed the query (a 500).
  if (ctx.body && typeof ctx.body === 'object') {
    const fields = Object.keys(ctx.body).filter((field) => !NOT_STORED_AS_TEXT.has(field));
    const unstorable = unstorableTextField(ctx.body, fields);
    if (unstorable) throw bad('TEXT_UNSTORABLE', unstorableTextError(unstorable));
  }
  // User Settings' name: stored trimmed, refused when empty or with control characters.
  if (ctx.path === '/update-user' && ctx.body && typeof ctx.body === 'object' && 'name' in ctx.body) {
    const name = settingsName(ctx.body.name);
    if (!imageAllowed(ctx.body.image)) throw bad('IMAGE_REFUSED', ACCOUNT_MESSAGES.imageRefused);
    return { context: { body: { ...ctx.body, name } } };
  }
  if (NAME_PATHS.has(ctx.path) && nameTooLong(ctx.body?.name)) {
    throw new APIError('BAD_REQUEST', { code: 'NAME_TOO_LONG', message: ACCOUNT_MESSAGES.nameTooLong });
  }
  // A NUL fails the insert (a vague 422, logged as an error); a lone surrogate is stored mangled.
  if (NAME_PATHS.has(ctx.path) && typeof ctx.body?.name === 'string' && !isStorableText(ctx.body.name)) {
    throw new APIError('BAD_REQUEST', { code: 'NAME_UNSTORABLE', message: ACCOUNT_MESSAGES.nameUnstorable });
  }
  if (NAME_PATHS.has(ctx.path) && !imageAllowed(ctx.body?.image)) {
    throw new APIError('BAD_REQUEST', { code: 'IMAGE_REFUSED', message: ACCOUNT_MESSAGES.imageRefused });
  }
  // "User already exists" is the spec's answer, but it came before the password's hash, so it was
  // also faster than a new account's, a second tell: the same hash is spent on it (issue 36).
  if (ctx.path === '/sign-up/email' && typeof ctx.body?.email === 'string' && typeof ctx.body?.password === 'string') {
    const existing = await ctx.context.internalAdapter.findUserByEmail(ctx.body.email.toLowerCase());
    if (existing) await ctx.context.password.hash(ctx.body.password);
  }
  // A new password ends every other session whatever the client asked: whoever had the old
  // password (or a stolen cookie) must not stay signed in. The current browser gets a new session.
  if (ctx.path === '/change-password') {
    const next = ctx.body?.newPassword;
    if (typeof next === 'string' && next.length < PASSWORD_MIN_LENGTH)
      throw bad('PASSWORD_TOO_SHORT', SETTINGS_MESSAGES.passwordTooShort);
    if (typeof next === 'string' && next.length > PASSWORD_MAX_LENGTH)
      throw bad('PASSWORD_TOO_LONG', SETTINGS_MESSAGES.passwordTooLong);
    return { context: { body: { ...ctx.body, revokeOtherSessions: true } } };
  }
  // An email change's link opened after another account took the new address (it was free when
  // asked): the change cannot be made, and the page says why, as better-auth's own link errors do,
  // instead of the unique index failing the update (a 500).
  if (ctx.path === '/verify-email') {
    const claims = changeClaims(ctx.query?.token);
    if (claims?.updateTo && claims.requestType === 'change-email-verification') {
      const holder = await ctx.context.internalAdapter.findUserByEmail(claims.updateTo);
      if (holder && holder.user.id !== claims.userId) {
        const callback = typeof ctx.query?.callbackURL === 'string' ? ctx.query.callbackURL : null;
        if (!callback) throw bad(EMAIL_TAKEN_ERROR, SETTINGS_MESSAGES.emailTakenMeanwhile);
        throw ctx.redirect(`${callback}${callback.includes('?') ? '&' : '?'}error=${EMAIL_TAKEN_ERROR}`);
      }
    }
  }
});
