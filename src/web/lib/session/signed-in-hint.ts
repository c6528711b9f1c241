// Whether this browser was signed in when the session last answered. Read while the session loads,
// so that a page holds the room of what will most likely show (the visitor's banner and sign-in card,
// or nothing and the balance card) and nothing moves when the answer comes (issue 18: CLS). Only a
// layout hint: what the page shows still waits for the real session.
const KEY = 'pp-signed-in';

export function wasSignedIn(): boolean {
  try {
    return window.localStorage.getItem(KEY) === '1';
  } catch {
    return false; // storage unavailable: assume a visitor, the most common case
  }
}

export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) window.localStorage.setItem(KEY, '1');
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage unavailable: the next load assumes a visitor.
  }
}
