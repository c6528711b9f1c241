// Whether this browser was signed in when the session last answered. Read while the session loads,
// so that a page holds the room of what will most likely show (the visitor's banner and sign-in card,
// or nothing and the balance card) and nothing moves when the answer comes (issue 18: CLS). Only a
// layout hint: what the page shows still waits for the real session.
import { useSyncExternalStore } from 'react';

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

/**
 * The hint a prerendered page was made with: the server's guess from the session cookie, carried by
 * the page (main.tsx). It is this page's hint from then on: hydration must render what the HTML
 * shows, and the cookie knows better than this browser's memory (a session that ended elsewhere).
 */
let prerenderedHint: boolean | null = null;

export function setPrerenderedHint(signedIn: boolean): void {
  prerenderedHint = signedIn;
}

/**
 * True when this page was prerendered for a request without a session cookie: the visitor is signed
 * out for certain, so the session starts as signed out (features/auth/AuthProvider.tsx) and what a
 * visitor sees (the sign-in banner and cards) is part of the page's first paint (issue 18: LCP).
 */
export const knownSignedOut = (): boolean => prerenderedHint === false;

const unchanging = () => () => {};

/** `wasSignedIn()` for rendering: a prerendered page's hint when there is one (always on the server). */
export const useSignedInHint = (): boolean =>
  useSyncExternalStore(
    unchanging,
    () => prerenderedHint ?? wasSignedIn(),
    () => prerenderedHint ?? false,
  );
