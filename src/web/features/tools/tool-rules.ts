// What each tool page checks before it calls the server, and what it says: product-spec.md sections 5
// and 8, letter for letter. The checks run in the order listed; the first that fails decides.
import type { Profile } from '../../../contract/accounts';
import { TOOL_MESSAGES, type ToolId } from '../../../contract/tools';

/** The suspension message of the tools that check it on submit (section 5). */
export const SUSPENDED_MESSAGE = 'Your account has been suspended. Please contact support.';

/** Where the spec sends a user with too few tokens. */
export type CheckOutcome = { kind: 'message'; text: string } | { kind: 'redirect-to-tokens' } | { kind: 'ignore' };

export type CheckContext = {
  /** Signed in with a readable profile; null for a visitor. */
  profile: Profile | null;
  /** Tokens this call costs (the tool's price times the images asked for). */
  cost: number;
  hasImage: boolean;
};

type Check = (context: CheckContext) => CheckOutcome | null;

const message = (text: string): CheckOutcome => ({ kind: 'message', text });

const signedIn =
  (text: string): Check =>
  ({ profile }) =>
    profile ? null : message(text);

const notSuspended: Check = ({ profile }) =>
  profile && (profile.isFraudulent || profile.isDispute) ? message(SUSPENDED_MESSAGE) : null;

/** Too few tokens: off to /tokens. */
const redirectBelow =
  (minimum: number): Check =>
  ({ profile }) =>
    profile && profile.tokens < minimum ? { kind: 'redirect-to-tokens' } : null;

const redirectWhenEmpty = redirectBelow(1);

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

/** Single-image tools: no image does nothing (the button is disabled), then sign-in, suspension, tokens. */
const singleImage = (loginMessage: string, minimumTokens: number): Check[] => [
  needsImage(null),
  signedIn(loginMessage),
  notSuspended,
  redirectBelow(minimumTokens),
];

export const SUBMIT_CHECKS: Record<ToolId, Check[]> = {
  'text-to-pic': [
    signedIn('Please log in to generate images.'),
    notSuspended,
    redirectWhenEmpty,
    messageBelowCost(TOOL_MESSAGES.notEnoughTokens),
  ],
  metamorphose: [
    signedIn('Please log in to generate images'),
    messageBelowCost(NOT_ENOUGH_AVAILABLE),
    needsImage('Please upload a reference image'),
  ],
  'background-swap': [
    signedIn('Please log in to swap backgrounds'),
    messageBelowCost(NOT_ENOUGH_AVAILABLE),
    needsImage('Please upload an image'),
  ],
  'text-lab': [
    signedIn('Please log in to use Text Lab.'),
    notSuspended,
    redirectWhenEmpty,
    messageBelowCost(TOOL_MESSAGES.notEnoughTokens),
  ],
  'image-upscaler': singleImage('Please log in to upscale images.', 1),
  'background-remover': singleImage('Please log in to remove background.', 2),
  colorizer: singleImage('Please log in to colorize images.', 6),
  'fix-a-face': singleImage('Please log in to fix faces.', 2),
  'creative-upscaler': singleImage('Please log in to upscale images.', 70),
  'image-analyzer': singleImage('Please log in to analyze image.', 1),
};

/** The first failing check of `tool`, or null when the call may go out. */
export function firstFailingCheck(tool: ToolId, context: CheckContext): CheckOutcome | null {
  for (const check of SUBMIT_CHECKS[tool]) {
    const outcome = check(context);
    if (outcome) return outcome;
  }
  return null;
}

/**
 * Metamorphose and Background Swap do not check the verified or suspended flags in the client
 * (section 6): their controls stay enabled and the server's answer says what is wrong.
 */
export const CHECKS_ACCOUNT_FLAGS: Record<ToolId, boolean> = {
  'text-to-pic': true,
  metamorphose: false,
  colorizer: true,
  'background-remover': true,
  'creative-upscaler': true,
  'fix-a-face': true,
  'text-lab': true,
  'background-swap': false,
  'image-upscaler': true,
  'image-analyzer': true,
};

/** The button's label while a job runs. */
export const BUSY_LABEL = { generate: 'Generating...', process: 'Processing...' } as const;

/**
 * What the user reads when a call fails (section 8): `fallback` for an answer without an error,
 * `network` when the server could not be reached. Single-image tools show their failure message
 * for both, and for any failed job.
 */
export const FAILURE_TEXT: Partial<Record<ToolId, { fallback: string; network: string }>> = {
  'text-to-pic': {
    fallback: 'An error occurred',
    network: 'Technical difficulties. Please try again in a few moments.',
  },
  metamorphose: {
    fallback: 'Generation failed',
    network: 'Please try using a smaller image or try generating again.',
  },
  'text-lab': { fallback: 'An error occurred', network: 'Failed to generate image' },
  'background-swap': { fallback: 'Failed to generate images', network: 'Failed to generate images' },
};

/** File names of downloads (section 7); `n` counts from 1. */
export const DOWNLOAD_NAMES: Record<Exclude<ToolId, 'image-analyzer'>, (n: number) => string> = {
  'text-to-pic': (n) => `generated-image-${n}.webp`,
  'image-upscaler': () => 'upscaled-image.webp',
  metamorphose: (n) => `metamorphose-${n}.webp`,
  'background-remover': () => 'background-removed.png',
  colorizer: () => 'colorized-image.webp',
  'creative-upscaler': () => 'creative-upscaled.webp',
  'fix-a-face': () => 'fixed-face.webp',
  'text-lab': (n) => `textlab-image-${n}.webp`,
  'background-swap': (n) => `background-swap-${n}.webp`,
};

/** Inline messages where the spec leaves the user without feedback (docs/decisions/006). */
export const INLINE_MESSAGES = {
  tooLarge5mb: 'File size must be less than 5MB',
  wrongType: 'Only PNG, JPG and WEBP images can be used.',
  oneFile: 'Please choose one image at a time.',
  empty: 'This file is empty. Please choose another image.',
  readError: 'Error reading file',
  prepareError: 'Error preparing image',
  downloadFailed: 'Failed to download image',
} as const;
