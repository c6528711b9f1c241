// "Send to <tool>": a result opens in another tool without a download. The tool's page reads the
// stored file's id from its address and sets its image to `storedImageRef(id)`.
import { storedImageId, storedImageRef } from '../../../contract/creations';

/** The search parameter that carries the stored file's id. */
export const SENT_IMAGE_PARAM = 'image';

/** The address of `route` with the stored image at `url` (/api/files/<id>) as its image; null for other URLs. */
export function sendToPath(route: string, url: string): string | null {
  const id = storedImageId(url);
  return id ? `${route}?${SENT_IMAGE_PARAM}=${id}` : null;
}

/** The image field's value for a sent file id, or null when the parameter is missing or not a file id. */
export function sentImageRef(search: URLSearchParams): string | null {
  const id = search.get(SENT_IMAGE_PARAM);
  return id && storedImageId(storedImageRef(id)) ? storedImageRef(id) : null;
}
