import { useCallback, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { INLINE_MESSAGES } from './tool-rules';

/** A download the server refused with a reason the user can act on (a transparent image asked as JPEG). */
class DownloadRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Saves a stored output under `fileName`: fetched as a blob (the file is the owner's only, sent with
 * the session cookie) and handed to the browser through a temporary link, as the spec does.
 */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) {
    const reason = response.status === 400 ? errorMessage(await response.json().catch(() => null)) : null;
    throw reason ? new DownloadRefused(reason) : new Error(`${url} answered ${response.status}`);
  }
  saveBlob(await response.blob(), fileName);
}

/** Hands `blob` to the browser as a download named `fileName`, through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob after this task; let it go a little later.
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
}

/** Downloads with an inline message when one fails (the spec says nothing there: docs/decisions/006). */
export function useDownloads() {
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const download = useCallback(async (url: string, fileName: string) => {
    setPending(url);
    setError(null);
    try {
      await downloadFile(url, fileName);
    } catch (failure) {
      setError(failure instanceof DownloadRefused ? failure.reason : INLINE_MESSAGES.downloadFailed);
    } finally {
      setPending(null);
    }
  }, []);

  return { download, pending, error };
}
