// API keys (issue 39): what POST/GET /api/keys take and answer. zod schemas, the one source of the
// types and of the OpenAPI document; pages import the types only (`import type`).
import { z } from 'zod';

/** Keys begin with this, so that a leaked one is easy to recognise and to scan for. */
export const API_KEY_PREFIX = 'pp_';

export const CREATE_API_KEY_REQUEST = z.object({
  name: z.string().trim().min(1, 'a name is required').max(100, 'must be at most 100 characters'),
});
export type CreateApiKeyRequest = z.input<typeof CREATE_API_KEY_REQUEST>;

export const CREATED_API_KEY = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z.string().describe(`The key, shown this once: it begins with "${API_KEY_PREFIX}".`),
    createdAt: z.string().describe('ISO 8601.'),
  })
  .describe('201: the new key, in full, this once.');
export type CreatedApiKey = z.output<typeof CREATED_API_KEY>;

export const API_KEY_LIST = z
  .object({
    keys: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        prefix: z.string().describe('The first characters of the key, to tell keys apart.'),
        createdAt: z.string().describe('ISO 8601.'),
        lastUsedAt: z.string().nullable().describe('ISO 8601, or null when never used.'),
      }),
    ),
  })
  .describe("The account's keys (never their secrets).");
export type ApiKeyList = z.output<typeof API_KEY_LIST>;
