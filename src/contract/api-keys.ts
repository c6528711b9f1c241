// API keys (issue 39): the requests and answers of /api/keys, the sentences the server answers with
// and the settings page shows, and the rules both sides apply. The OpenAPI document is generated
// from these schemas: they are the only description of these shapes.
import { z } from 'zod';
import { API_KEY_MESSAGES, API_KEY_SHOWN_CHARACTERS, apiKeyNameProblem } from './api-key-rules';

export * from './api-key-rules';

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
