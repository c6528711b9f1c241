// A tool's image field may name one of the user's own stored files (`/api/files/<id>`, the
// contract's storedImageRef) instead of carrying its bytes, to use a result again without
// downloading it. The file is read back as a data URL before the request is checked, so it meets
// the same decode, limits and moderation as an upload; another user's file reads as a missing one.
import { storedImageId } from '../../../contract/creations';
import { INPUT_MESSAGES } from '../../../contract/input-limits';
import type { AppDb } from '../../db/client';
import { InputError } from '../../images/image-input';
import type { FileStorage } from '../../storage/storage';
import { findOwnFile } from '../queue/jobs-repository';

export const NO_SUCH_STORED_IMAGE = INPUT_MESSAGES.storedImageGone;

/** The body with each stored-image reference replaced by its bytes; InputError for a file not the user's. */
export async function withStoredImages(
  deps: { db: AppDb; storage: FileStorage },
  userId: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const resolved = { ...body };
  for (const [field, value] of Object.entries(body)) {
    const fileId = typeof value === 'string' ? storedImageId(value) : null;
    if (!fileId) continue;
    const file = await findOwnFile(deps.db, fileId, userId);
    const bytes = file ? await deps.storage.get(file.storageKey) : null;
    if (!file || !bytes) throw new InputError(field, NO_SUCH_STORED_IMAGE);
    resolved[field] = `data:${file.contentType};base64,${bytes.toString('base64')}`;
  }
  return resolved;
}
