// API keys' rules and sentences, for the server and the settings page alike: without zod, so that
// the page's chunk does not carry it (the schemas are in api-keys.ts, which re-exports these).

/** Every key begins with this; the rest is 32 random bytes, base64url (43 characters). */
export const API_KEY_PREFIX = 'pp_';
/** How many of a key's first characters are kept and shown in lists ("pp_" and 9 more). */
export const API_KEY_SHOWN_CHARACTERS = 12;
export const API_KEY_NAME_MAX_LENGTH = 60;
export const API_KEYS_PER_ACCOUNT = 20;

export const API_KEY_MESSAGES = {
  nameEmpty: 'Please give the key a name, like "My laptop" or "Shop backend".',
  nameTooLong: `A key's name can be at most ${API_KEY_NAME_MAX_LENGTH} characters long.`,
  nameControl: 'A key’s name can’t contain line breaks, tabs or other control characters.',
  unverified: 'Please verify your email address before creating an API key.',
  suspended: 'Your account is suspended, so it cannot create API keys. Please contact support.',
  tooMany: `You already have ${API_KEYS_PER_ACCOUNT} API keys. Revoke one you no longer use to create another.`,
  notFound: 'There is no such API key on your account.',
  /** A Bearer request to anything but the tools and the reads a key may make (403). */
  sessionRequired:
    'This needs you signed in on the website: an API key can call the tools and read jobs, files, creations and your balance.',
  /** An unknown, revoked or malformed key (401). */
  invalidKey: 'This API key is not valid. Create one in User Settings > Developer.',
} as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** What is wrong with a key's name (judged trimmed, as it is kept), or null. */
export function apiKeyNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return API_KEY_MESSAGES.nameEmpty;
  if (CONTROL_CHARACTERS.test(trimmed)) return API_KEY_MESSAGES.nameControl;
  if ([...trimmed].length > API_KEY_NAME_MAX_LENGTH) return API_KEY_MESSAGES.nameTooLong;
  return null;
}
