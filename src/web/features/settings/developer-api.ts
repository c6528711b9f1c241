// The Developer card's calls: API keys (server: api-keys/routes.ts) and the webhook signing secret.
// With the settings page's chunk, not with every page's code.
import type { ApiKeyList, CreatedApiKey } from '../../../contract/api-keys';
import { deleteJson, getJson, postJson } from '../../lib/api';

export const DEVELOPER_API = {
  keys: '/api/keys',
  key: (id: string) => `/api/keys/${encodeURIComponent(id)}`,
  webhookSecret: '/api/webhook-secret',
  rotateWebhookSecret: '/api/webhook-secret/rotate',
} as const;

/** The page for developers: getting a key, the first call, every tool, webhooks. */
export const DEVELOPERS_PAGE = '/developers';

export type WebhookSecret = { secret: string };

export const listApiKeys = () => getJson<ApiKeyList>(DEVELOPER_API.keys);
export const createApiKey = (name: string) => postJson<CreatedApiKey>(DEVELOPER_API.keys, { name });
export const revokeApiKey = (id: string) => deleteJson<unknown>(DEVELOPER_API.key(id));
export const getWebhookSecret = () => getJson<WebhookSecret>(DEVELOPER_API.webhookSecret);
export const rotateWebhookSecret = () => postJson<WebhookSecret>(DEVELOPER_API.rotateWebhookSecret);
