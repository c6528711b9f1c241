// API keys (issue 39): the requests and answers of /api/keys, the sentences the server answers with
// and the settings page shows, and the rules both sides apply. The OpenAPI document is generated
// from these schemas: they are the only description of these shapes.
import { z } from 'zod';

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

/** `POST /api/keys` */
export const CREATE_API_KEY_REQUEST = z
  .object({
    name: z
      .string({ error: API_KEY_MESSAGES.nameEmpty })
      .superRefine((name, ctx) => {
        const problem = apiKeyNameProblem(name);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .describe('A name that tells your keys apart: 1 to 60 characters, trimmed.'),
  })
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.infer<typeof CREATE_API_KEY_REQUEST>;

/** `POST /api/keys` -> 201: the only answer that carries the key itself. */
export const CREATED_API_KEY = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z.string().describe('The key, shown this once: only its hash is kept.'),
    createdAt: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CREATED_API_KEY>;

export const API_KEY_SUMMARY = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe(`The key's first ${API_KEY_SHOWN_CHARACTERS} characters.`),
    createdAt: z.string().describe('ISO 8601'),
    lastUsedAt: z.string().nullable().describe('ISO 8601, to the minute; null: never used'),
  })
  .meta({ id: 'ApiKeySummary' });
export type ApiKeySummary = z.infer<typeof API_KEY_SUMMARY>;

/** `GET /api/keys`: newest first; never the key or its hash. */
export const API_KEY_LIST = z.object({ keys: z.array(API_KEY_SUMMARY) }).meta({ id: 'ApiKeyList' });
export type ApiKeyList = z.infer<typeof API_KEY_LIST>;

/** The headers every answer to a key (and every tool call) carries: the account's tool-call window. */
export const RATE_LIMIT_HEADERS = {
  limit: 'RateLimit-Limit',
  remaining: 'RateLimit-Remaining',
  reset: 'RateLimit-Reset',
} as const;
