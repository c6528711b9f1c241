// The My Creations API (contract/creations.ts): the tool pages read the latest job of their tool,
// the /creations page lists, deletes and shares, User Settings exports and deletes the account.
import type { Creation, CreationList, CreationUsage, SharedCreation, ShareLink } from '../../../contract/creations';
import { REFINE_PATHS } from '../../../contract/refine';
import type { ToolId } from '../../../contract/tools';
import { type ApiResult, deleteJson, getJson, postForm, postJson } from '../api';

export type CreationQuery = { tool?: ToolId | null; cursor?: string | null; limit?: number };

export function listCreations({ tool, cursor, limit }: CreationQuery = {}): Promise<ApiResult<CreationList>> {
  const query = new URLSearchParams();
  if (tool) query.set('tool', tool);
  if (cursor) query.set('cursor', cursor);
  if (limit) query.set('limit', String(limit));
  const search = query.toString();
  return getJson<CreationList>(`/api/creations${search ? `?${search}` : ''}`);
}

const creationPath = (jobId: string) => `/api/creations/${encodeURIComponent(jobId)}`;

async function remove(path: string): Promise<boolean> {
  const response = await fetch(path, { method: 'DELETE', credentials: 'same-origin' });
  return response.ok;
}

export const deleteCreation = (jobId: string) => remove(creationPath(jobId));

export const shareCreation = (jobId: string) => postJson<ShareLink>(`${creationPath(jobId)}/share`);

export const unshareCreation = (jobId: string) => remove(`${creationPath(jobId)}/share`);

/** A cut-out's mask to start refining from (decision 082): white where the subject is. */
export const maskUrl = (jobId: string) => `/api${REFINE_PATHS.mask(encodeURIComponent(jobId))}`;

/** A new version of a cut-out from its edited mask (a PNG, white on transparent): its creation. */
export function refineCreation(jobId: string, mask: Blob): Promise<ApiResult<Creation & { error?: string }>> {
  const form = new FormData();
  form.append('mask', mask, 'mask.png');
  return postForm(`/api${REFINE_PATHS.refine(encodeURIComponent(jobId))}`, form);
}

export const getUsage = () => getJson<CreationUsage>('/api/creations/usage');

export const getShared = (token: string) => getJson<SharedCreation>(`/api/shared/${encodeURIComponent(token)}`);

export const ACCOUNT_EXPORT_URL = '/api/account/export';

/** Deletes the account; `password` confirms it when the sign-in is not recent (a 403 says how). */
export const deleteAccount = (password?: string) =>
  deleteJson<{ error?: string; reauth?: string }>('/api/account', password ? { password } : undefined);
