// The support console's rules and sentences (issue 57), for the server and the /admin pages alike:
// without zod, so that the pages' chunk does not carry it (the schemas are in admin.ts, which
// re-exports these).

/** Where the console's JSON lives: every route below it answers 404 to anyone but an operator. */
export const ADMIN_API_BASE = '/api/admin';

/** Rows in one page of a list (an account's ledger and jobs, the audit log). */
export const ADMIN_PAGE_SIZE = 25;
/** Accounts a search answers at most. */
export const ADMIN_SEARCH_LIMIT = 20;
/** The most tokens one action grants or deducts. */
export const ADMIN_MAX_TOKEN_CHANGE = 1_000_000;
/** The longest reason kept in the audit log. */
export const ADMIN_REASON_MAX_LENGTH = 500;

/** What the audit log's `action` says was done. */
export const ADMIN_ACTIONS = ['tokens', 'flags', 'refund', 'verification-mail', 'revoke-key', 'sign-out'] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/** The audit log's operator for `npm run admin` (its name is the OS user who ran it). */
export const CLI_OPERATOR_ID = 'cli';

export const ADMIN_MESSAGES = {
  reasonRequired: 'A reason is required: say why, for the audit log.',
  reasonTooLong: `A reason can be at most ${ADMIN_REASON_MAX_LENGTH} characters long.`,
  deltaInvalid: `The change must be a whole number of tokens, not 0, from -${ADMIN_MAX_TOKEN_CHANGE} to ${ADMIN_MAX_TOKEN_CHANGE}.`,
  belowZero: (balance: number) =>
    `This would take the balance below zero: the account has ${balance} tokens, so at most ${balance} can be deducted.`,
  flagsMissing: 'Say which flag to set or clear: isDispute, isFraudulent or both (true or false).',
  accountNotFound: 'There is no account with this id.',
  jobNotFound: 'There is no job with this id.',
  keyNotFound: 'There is no API key with this id.',
  noProfile: 'This account has no profile yet (its setup has not run): try again in a minute.',
  jobNotEnded: 'This job has not ended yet: a job that fails is refunded by itself.',
  jobNotCharged: 'This job was not charged (a free preview): there is nothing to refund.',
  jobAlreadyRefunded: 'This job has already been refunded: a job is refunded once.',
  alreadyVerified: "This account's email address is already verified.",
  mailCooldown: (seconds: number) =>
    `A verification mail went to this account less than a minute ago: try again in ${seconds} seconds.`,
  badPage: 'The page must be a whole number from 1.',
} as const;
