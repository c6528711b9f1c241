// Previews of stored images: a WebP at most 512 px on its longer side, made the first time it is
// asked for and kept in file storage beside the image (thumbnails/<file id>.webp), so the list of
// creations stays light and a thumbnail is computed once.
import sharp from 'sharp';
import { decodeSlots } from '../images/decode-slots';
import { DECODE_TIME_LIMIT_SECONDS } from '../images/image-decode';
import type { FileStorage } from '../storage/storage';

export const THUMBNAIL_MAX_PX = 512;

export const thumbnailUrl = (fileId: string) => `/api/files/${fileId}/thumbnail`;

export const thumbnailKey = (fileId: string) => `thumbnails/${fileId}.webp`;

/** Thumbnails being made now, by file id: requests that arrive together share one decode. */
const making = new Map<string, Promise<Buffer | null>>();

/**
 * The file's thumbnail, made and stored on first use; null when the image itself is gone. Made once
 * however many ask at the same time, in a decode slot (decode-slots.ts) and within a time limit.
 */
export async function thumbnailOf(storage: FileStorage, file: { id: string; storageKey: string }) {
  const cached = await storage.get(thumbnailKey(file.id));
  if (cached) return cached;
  let made = making.get(file.id);
  if (!made) {
    made = decodeSlots.run(`thumbnail:${file.id}`, () => makeThumbnail(storage, file));
    making.set(file.id, made);
    void made.catch(() => undefined).finally(() => making.delete(file.id));
  }
  return made;
}

async function makeThumbnail(storage: FileStorage, file: { id: string; storageKey: string }) {
  const original = await storage.get(file.storageKey);
  if (!original) return null;
  const thumbnail = await sharp(original)
    .rotate()
    .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .timeout({ seconds: DECODE_TIME_LIMIT_SECONDS })
    .toBuffer();
  await storage.put(thumbnailKey(file.id), thumbnail, 'image/webp');
  return thumbnail;
}
