// Addresses come from outside (a typed or pasted link, a crawler, a hand-made request), and
// decodeURIComponent throws URIError on broken percent-encoding (`/shared/%`, `%zz`, a cut UTF-8
// sequence such as `%E0%A4%A`). Both sides decode through here: the web router shows its not-found
// screen for such an address, the server answers it with 404 or 400 (issue 37).

/** decodeURIComponent, or null when `text` has broken percent-encoding (it never throws). */
export function tryDecodeURIComponent(text: string): string | null {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** True when every `%` in `text` starts a valid escape and the escapes spell valid UTF-8. */
export const isWellEncoded = (text: string): boolean => tryDecodeURIComponent(text) !== null;
