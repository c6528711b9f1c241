// Copying a key or a secret to the clipboard, and the sentence that says how it went.
import type { FormMessageValue } from '../../components/FormMessage';

export const COPY_TEXT = {
  copied: 'Copied.',
  copyFailed: 'Copying failed: select the text and copy it yourself.',
} as const;

export async function copyText(text: string): Promise<FormMessageValue> {
  try {
    await navigator.clipboard.writeText(text);
    return { tone: 'success', text: COPY_TEXT.copied };
  } catch {
    return { tone: 'error', text: COPY_TEXT.copyFailed };
  }
}
