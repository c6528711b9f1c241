// The checks a tool page makes before it calls the server, and what they say: product-spec.md sections
// 5 and 8, letter for letter. Each tool's folder lists its own (its tool.ts); the first that fails decides.
import type { Profile } from '../../../contract/accounts';
import { TOOL_MESSAGES, UPLOAD_TOO_LARGE_5MB } from '../../../contract/tools';

/** The suspension message of the tools that check it on submit (section 5). */
export const SUSPENDED_MESSAGE = 'Your account has been suspended. Please contact support.';

/** Where the spec sends a user with too few tokens. */
export type CheckOutcome = { kind: 'message'; text: string } | { kind: 'redirect-to-tokens' } | { kind: 'ignore' };

export type CheckContext = {
  /** Signed in with a readable profile; null for a visitor. */
  profile: Profile | null;
  /** Tokens this call takes (the price here times the images asked for): 0 for a free preview. */
  cost: number;
  hasImage: boolean;
};

export type Check = (context: CheckContext) => CheckOutcome | null;

const message = (text: string): CheckOutcome => ({ kind: 'message', text });

/** "Please log in ..." when signed out. */
const signedIn =
  (text: string): Check =>
  ({ profile }) =>
    profile ? null : message(text);

const notSuspended: Check = ({ profile }) =>
  profile && (profile.isFraudulent || profile.isDispute) ? message(SUSPENDED_MESSAGE) : null;

/** An empty balance: off to /tokens (not for a free preview, which takes nothing: decision 039). */
const redirectWhenEmpty: Check = ({ profile, cost }) =>
  profile && cost > 0 && profile.tokens < 1 ? { kind: 'redirect-to-tokens' } : null;

/** Too few tokens for this call: off to /tokens. */
const redirectBelowCost: Check = ({ profile, cost }) =>
  profile && profile.tokens < cost ? { kind: 'redirect-to-tokens' } : null;

/** Too few tokens for this call: a message. */
const messageBelowCost =
  (text: string): Check =>
  ({ profile, cost }) =>
    profile && profile.tokens < cost ? message(text) : null;

const needsImage =
  (text: string | null): Check =>
  ({ hasImage }) =>
    hasImage ? null : text ? message(text) : { kind: 'ignore' };

const NOT_ENOUGH_AVAILABLE = 'Not enough tokens available';

/** Single-image tools: no image does nothing (the button is disabled), then sign-in, suspension, and
 * too few tokens for the call (its cost, the contract's price) sends the user to /tokens. */
export const singleImageChecks = (loginMessage: string): Check[] => [
  needsImage(null),
  signedIn(loginMessage),
  notSuspended,
  redirectBelowCost,
];

/** Text to Pic and Text Lab: sign-in, suspension, an empty balance to /tokens, then too few for this call. */
export const promptChecks = (loginMessage: string): Check[] => [
  signedIn(loginMessage),
  notSuspended,
  redirectWhenEmpty,
  messageBelowCost(TOOL_MESSAGES.notEnoughTokens),
];

/** Metamorphose and Background Swap: sign-in, too few tokens for this call, then the image (no flag checks). */
export const uploadChecks = (loginMessage: string, noImageMessage: string): Check[] => [
  signedIn(loginMessage),
  messageBelowCost(NOT_ENOUGH_AVAILABLE),
  needsImage(noImageMessage),
];

/** The first failing check of `checks`, or null when the call may go out. */
export function firstFailingCheck(checks: readonly Check[], context: CheckContext): CheckOutcome | null {
  for (const check of checks) {
    const outcome = check(context);
    if (outcome) return outcome;
  }
  return null;
}

/** The button's label while a job runs. */
export const BUSY_LABEL = { generate: 'Generating...', process: 'Processing...' } as const;

/** Inline messages where the spec leaves the user without feedback (docs/decisions/006). */
export const INLINE_MESSAGES = {
  tooLarge5mb: UPLOAD_TOO_LARGE_5MB,
  wrongType: 'Only PNG, JPG and WEBP images can be used.',
  oneFile: 'Please choose one image at a time.',
  empty: 'This file is empty. Please choose another image.',
  readError: 'Error reading file',
  prepareError: 'Error preparing image',
  notAnImage: 'This file is not a readable PNG, JPG or WEBP image. Please choose another.',
  downloadFailed: 'Failed to download image',
} as const;
