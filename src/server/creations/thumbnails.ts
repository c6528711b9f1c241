// Previews of stored images: a WebP at most 512 px on its longer side, made the first time it is
// asked for and kept in file storage beside the image (thumbnails/<file id>.webp), so the list of
// creations stays light and a thumbnail is computed once.
import sharp from 'sharp';
import type { FileStorage } from '../storage/storage';

export const THUMBNAIL_MAX_PX = 512;

export const thumbnailUrl = (fileId: string) => `/api/files/${fileId}/thumbnail`;

export const thumbnailKey = (fileId: string) => `thumbnails/${fileId}.webp`;

/** The file's thumbnail, made and stored on first use; null when the image itself is gone. */
export async function thumbnailOf(storage: FileStorage, file: { id: string; storageKey: string }) {
  const cached = await storage.get(thumbnailKey(file.id));
  if (cached) return cached;
  const original = await storage.get(file.storageKey);
  if (!original) return null;
  const thumbnail = await sharp(original)
    .rotate()
    .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer();
  await storage.put(thumbnailKey(file.id), thumbnail, 'image/webp');
  return thumbnail;
}
