// The images a batch is made of, before it runs: the files chosen, dropped or pasted, each checked
// as the single drop zone checks its one file (type, empty, bytes; pixels once its preview knows
// them), with a preview that costs no reading (an object URL, not a data URL: fifty photos of 10 MB
// read at once would hold half a gigabyte). Files are read one by one as they are sent.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_BATCH_IMAGES, MAX_BATCH_NAME_LENGTH } from '../../../../contract/batches';
import { imageByteLimit } from '../../../../contract/input-limits';
import type { ImageToolId } from '../../../../contract/tools';
import { type ImageSize, rejectionOf } from '../parts/ImageDropZone';
import { INLINE_MESSAGES } from '../tool-rules';

/** One file of a batch being put together. */
export type PickedFile = {
  key: number;
  file: File;
  /** Its name as the batch keeps it (a pasted image may come without one). */
  name: string;
  /** Its preview (an object URL), or null for a file the checks refused before reading it. */
  url: string | null;
  /** Why it cannot be sent (its type, size, or bytes the browser cannot read), or null. */
  rejected: string | null;
  /** Its pixel size once the preview has loaded. */
  size: ImageSize | null;
};

/** A name the batch takes: at most MAX_BATCH_NAME_LENGTH characters, its extension kept. */
export function batchName(name: string): string {
  const trimmed = name.trim() || 'Pasted image';
  if (trimmed.length <= MAX_BATCH_NAME_LENGTH) return trimmed;
  const dot = trimmed.lastIndexOf('.');
  const extension = dot > 0 && trimmed.length - dot <= 10 ? trimmed.slice(dot) : '';
  return trimmed.slice(0, MAX_BATCH_NAME_LENGTH - extension.length) + extension;
}

const revoke = (file: PickedFile) => {
  if (file.url) URL.revokeObjectURL(file.url);
};

/**
 * The files of a batch tool's page: several added at once (the first MAX_BATCH_IMAGES kept, the
 * number left out said), removed one by one, measured as their previews load.
 */
export function useBatchFiles(tool: ImageToolId) {
  const [files, setFiles] = useState<PickedFile[]>([]);
  /** How many files the last addition left out (over MAX_BATCH_IMAGES). */
  const [leftOut, setLeftOut] = useState(0);
  const nextKey = useRef(1);
  const current = useRef(files);
  current.current = files;

  // Leaving the page lets the previews go.
  useEffect(() => () => current.current.forEach(revoke), []);

  const add = useCallback(
    (incoming: readonly File[]) => {
      const limit = imageByteLimit(tool);
      const room = Math.max(0, MAX_BATCH_IMAGES - current.current.length);
      const taken = incoming.slice(0, room).map((file): PickedFile => {
        // The single drop zone's own checks, one file at a time.
        const rejected = rejectionOf([file], limit);
        return {
          key: nextKey.current++,
          file,
          name: batchName(file.name),
          url: rejected ? null : URL.createObjectURL(file),
          rejected,
          size: null,
        };
      });
      setLeftOut(incoming.length - taken.length);
      // Kept at once: a second addition before the next render counts these too.
      current.current = [...current.current, ...taken];
      setFiles(current.current);
    },
    [tool],
  );

  /** The files without `key`; returns what is left. */
  const remove = useCallback((key: number): PickedFile[] => {
    const gone = current.current.find((file) => file.key === key);
    if (gone) revoke(gone);
    const left = current.current.filter((file) => file.key !== key);
    current.current = left;
    setFiles(left);
    setLeftOut(0);
    return left;
  }, []);

  /** Forgets every file (a new batch, or back to one image). */
  const clear = useCallback(() => {
    current.current.forEach(revoke);
    current.current = [];
    setFiles([]);
    setLeftOut(0);
  }, []);

  const update = useCallback((key: number, change: Partial<PickedFile>) => {
    current.current = current.current.map((file) => (file.key === key ? { ...file, ...change } : file));
    setFiles(current.current);
  }, []);

  /** Its preview knows its pixel size. */
  const measured = useCallback((key: number, size: ImageSize) => update(key, { size }), [update]);

  /** The browser cannot decode it (a text file named photo.png): it is not sent. */
  const unreadable = useCallback(
    (key: number) => update(key, { rejected: INLINE_MESSAGES.notAnImage, size: null }),
    [update],
  );

  return { files, leftOut, add, remove, clear, measured, unreadable };
}

export type BatchFiles = ReturnType<typeof useBatchFiles>;
