// The files of a drop, with the files inside a dropped folder where the browser lets a page read it
// (DataTransferItem.webkitGetAsEntry: Chromium, Firefox, Safari). Elsewhere a folder arrives as one
// odd File, which the drop zone's own checks refuse like any other file it cannot use.

/** The part of the File and Directory Entries API a drop uses (not in TypeScript's DOM types everywhere). */
type Entry = {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (onFile: (file: File) => void, onError: (error: unknown) => void) => void;
  createReader?: () => {
    readEntries: (onEntries: (entries: Entry[]) => void, onError: (error: unknown) => void) => void;
  };
};

/** A folder's files holds at most this many before the reading stops (a batch takes far fewer). */
const MAX_FOLDER_FILES = 500;

function fileOf(entry: Entry): Promise<File | null> {
  return new Promise((resolve) => {
    if (!entry.file) return resolve(null);
    entry.file(resolve, () => resolve(null));
  });
}

/** Every file under `entry`, in name order (readEntries answers in pieces: read until it answers none). */
async function filesUnder(entry: Entry, into: File[]): Promise<void> {
  if (into.length >= MAX_FOLDER_FILES) return;
  if (entry.isFile) {
    const file = await fileOf(entry);
    if (file) into.push(file);
    return;
  }
  const reader = entry.isDirectory ? entry.createReader?.() : undefined;
  if (!reader) return;
  const children: Entry[] = [];
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve) => reader.readEntries(resolve, () => resolve([])));
    if (batch.length === 0) break;
    children.push(...batch);
  }
  children.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
  for (const child of children) {
    // Hidden files (.DS_Store) are the system's, not the user's images.
    if (!child.name.startsWith('.')) await filesUnder(child, into);
  }
}

/**
 * The dropped files, a folder's read through. The entries must be taken during the drop event (the
 * list empties after it), so call this from the handler itself and await it afterwards.
 */
export function droppedFiles(data: DataTransfer): Promise<File[]> {
  const plain = Array.from(data.files ?? []);
  // Taken now: a folder as its entry, anything else as its file.
  const dropped = Array.from(data.items ?? []).map((item): { entry: Entry } | { file: File | null } => {
    const entry = typeof item.webkitGetAsEntry === 'function' ? (item.webkitGetAsEntry() as Entry | null) : null;
    if (entry?.isDirectory) return { entry };
    return { file: item.kind === 'file' ? item.getAsFile() : null };
  });
  if (!dropped.some((part) => 'entry' in part)) return Promise.resolve(plain);
  return (async () => {
    const files: File[] = [];
    for (const part of dropped) {
      if ('entry' in part) await filesUnder(part.entry, files);
      else if (part.file) files.push(part.file);
    }
    return files;
  })();
}
