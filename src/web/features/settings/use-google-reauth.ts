// Signing in with Google again from User Settings, to confirm it is the owner before deleting the
// account, changing its email or setting a first password (the server's 403 with reauth 'google').
// The same popup as the landing page's (public/auth/popup-done.js reports back); the new session is
// recent, so the user's next try goes through.
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { isPopupMessage, startGoogleSignIn } from '../../lib/session/auth-api';
import { useAuth } from '../../lib/session/auth-context';

export const GOOGLE_REAUTH_TEXT = {
  button: 'Sign in with Google again',
  done: 'You signed in again. You can go ahead now.',
  failed: 'Signing in with Google did not work. Please try again.',
  blocked: 'Your browser blocked the Google window. Allow pop-ups for this site and try again.',
} as const;

export type GoogleReauthResult = { ok: true } | { ok: false; error: string };

/** A fresh Google sign-in in a pop-up: `start` opens it, `busy` while it is open. */
export type GoogleReauth = { start: () => Promise<void>; busy: boolean };

export function useGoogleReauth(onResult: (result: GoogleReauthResult) => void): GoogleReauth {
  const { refresh } = useAuth();
  const [busy, setBusy] = useState(false);
  const popupRef = useRef<Window | null>(null);
  const onResultRef = useRef(onResult);
  onResultRef.current = onResult;

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isPopupMessage(event.data) || !popupRef.current) return;
      popupRef.current = null;
      setBusy(false);
      if (!event.data.ok) return onResultRef.current({ ok: false, error: GOOGLE_REAUTH_TEXT.failed });
      void refresh({ announce: true }).then(() => onResultRef.current({ ok: true }));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [refresh]);

  // A popup closed without a word (cancelled) frees the button again.
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => {
      if (popupRef.current?.closed) {
        popupRef.current = null;
        setBusy(false);
      }
    }, 500);
    return () => clearInterval(timer);
  }, [busy]);

  const start = useCallback(async () => {
    // Opened inside the click, before any await, so that pop-up blockers let it through.
    const popup = window.open('about:blank', 'pp-google', 'width=500,height=640');
    if (!popup) return onResultRef.current({ ok: false, error: GOOGLE_REAUTH_TEXT.blocked });
    popupRef.current = popup;
    setBusy(true);
    try {
      const result = await startGoogleSignIn();
      const url = result.data?.url;
      if (result.ok && typeof url === 'string' && url) {
        popup.location.href = url;
        return;
      }
      popup.close();
      popupRef.current = null;
      setBusy(false);
      onResultRef.current({ ok: false, error: errorMessage(result.data) ?? GOOGLE_REAUTH_TEXT.failed });
    } catch {
      popup.close();
      popupRef.current = null;
      setBusy(false);
      onResultRef.current({ ok: false, error: GOOGLE_REAUTH_TEXT.failed });
    }
  }, []);

  return { start, busy };
}
