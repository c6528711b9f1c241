import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PublicConfig } from '../../../contract/accounts';
import { whenPageHydrated } from '../../lib/deferred-part';
import { getProfile, getPublicConfig, getSession, signOutRequest } from '../../lib/session/auth-api';
import { AuthContext, type AuthContextValue, type AuthState } from '../../lib/session/auth-context';
import { knownSignedOut, rememberSignedIn } from '../../lib/session/signed-in-hint';

/** How often the watcher re-reads an unverified profile. */
export const VERIFICATION_POLL_MS = 5_000;

/** localStorage key whose `storage` event tells other tabs that someone signed in or out. */
export const AUTH_CHANGED_KEY = 'pp-auth-changed';

const SIGNED_OUT: AuthState = { status: 'signed-out', user: null, profile: null };

/** Tells the other tabs of this origin to re-check the session (the event fires in them, not here). */
function announceAuthChange(): void {
  try {
    window.localStorage.setItem(AUTH_CHANGED_KEY, String(Date.now()));
  } catch {
    // Storage may be unavailable (private mode, quota); the other tabs catch up on focus.
  }
}

/**
 * Knows who is signed in: the session (better-auth) and the profile (our API). Mounted once in Root.
 * First check: GET /api/auth/get-session, then GET /api/profile when signed in. After that it follows
 * the user: on window focus and when the tab becomes visible again, when another tab signs in or out,
 * and, while the email address is unverified, every 5 seconds, so that verifying in the mail tab
 * updates this one without a reload.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  // Signed out from the first render when the page was made for a request without a session
  // cookie: the answer is known, so pages show a visitor's view at once instead of a placeholder.
  const [state, setState] = useState<AuthState>(() =>
    knownSignedOut() ? SIGNED_OUT : { status: 'loading', user: null, profile: null },
  );
  const stateRef = useRef(state);
  stateRef.current = state;
  useEffect(() => {
    if (state.status !== 'loading') rememberSignedIn(state.status === 'signed-in');
  }, [state.status]);
  /** Only the newest check may write the state: answers can arrive out of order. */
  const sequence = useRef(0);
  const passiveCheck = useRef<Promise<void> | null>(null);
  const configRequest = useRef<Promise<PublicConfig | null> | null>(null);

  const check = useCallback(async (): Promise<void> => {
    const ticket = ++sequence.current;
    const apply = async (next: AuthState) => {
      // Not while a prerendered page still hydrates its deferred parts (lib/deferred-part.tsx).
      await whenPageHydrated();
      if (ticket === sequence.current) setState(next);
    };
    try {
      const session = await getSession();
      if (session.status === 401 || (session.ok && !session.data?.user)) return apply(SIGNED_OUT);
      if (!session.ok || !session.data?.user) throw new Error(`get-session answered ${session.status}`);
      const user = session.data.user;
      const profile = await getProfile();
      if (profile.status === 401) return apply(SIGNED_OUT);
      const previous = stateRef.current;
      const sameUser = previous.user?.id === user.id;
      apply({
        status: 'signed-in',
        user,
        // A profile that cannot be read right now keeps the last known one of the same user.
        profile: profile.ok && profile.data ? profile.data : sameUser ? previous.profile : null,
      });
    } catch {
      // Server unreachable or failing: the first check settles on signed out so pages can render;
      // later checks keep what we knew.
      await whenPageHydrated();
      if (ticket === sequence.current && stateRef.current.status === 'loading') setState(SIGNED_OUT);
    }
  }, []);

  const refresh = useCallback<AuthContextValue['refresh']>(
    async (options) => {
      await check();
      if (options?.announce) announceAuthChange();
    },
    [check],
  );

  /** Focus, visibility and other tabs: one check at a time is enough. */
  const refreshPassively = useCallback(() => {
    passiveCheck.current ??= check().finally(() => {
      passiveCheck.current = null;
    });
    return passiveCheck.current;
  }, [check]);

  const refreshProfile = useCallback(async (): Promise<void> => {
    if (stateRef.current.status !== 'signed-in') return;
    const ticket = sequence.current;
    try {
      const profile = await getProfile();
      if (ticket !== sequence.current) return;
      if (profile.status === 401) return refreshPassively();
      const data = profile.data;
      if (!profile.ok || !data) return;
      setState((current) =>
        current.status === 'signed-in' && current.user
          ? { ...current, profile: data, user: { ...current.user, emailVerified: data.emailVerified } }
          : current,
      );
    } catch {
      // Offline for a moment: the next poll or focus tries again.
    }
  }, [refreshPassively]);

  const applyServerBalance = useCallback((body: unknown) => {
    const tokens = (body as { balance?: unknown } | null)?.balance;
    if (typeof tokens !== 'number') return;
    setState((current) => (current.profile ? { ...current, profile: { ...current.profile, tokens } } : current));
  }, []);

  const signOut = useCallback(async (): Promise<boolean> => {
    try {
      const result = await signOutRequest();
      if (!result.ok) return false;
    } catch {
      return false;
    }
    sequence.current++;
    setState(SIGNED_OUT);
    announceAuthChange();
    return true;
  }, []);

  const loadConfig = useCallback((): Promise<PublicConfig | null> => {
    configRequest.current ??= getPublicConfig().then(
      (result) => (result.ok && result.data ? result.data : null),
      () => null,
    );
    const request = configRequest.current;
    // A failed read is not cached: the next caller asks again.
    void request.then((config) => {
      if (config === null && configRequest.current === request) configRequest.current = null;
    });
    return request;
  }, []);

  // The first check.
  useEffect(() => {
    void check();
  }, [check]);

  // Coming back to the tab, and other tabs signing in or out.
  useEffect(() => {
    const onFocus = () => void refreshPassively();
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void refreshPassively();
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key === AUTH_CHANGED_KEY) void refreshPassively();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('storage', onStorage);
    };
  }, [refreshPassively]);

  // The verification watcher: while signed in and unverified (or the profile is unreadable), poll.
  const watching = state.status === 'signed-in' && state.profile?.emailVerified !== true;
  useEffect(() => {
    if (!watching) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') void refreshProfile();
    }, VERIFICATION_POLL_MS);
    return () => clearInterval(timer);
  }, [watching, refreshProfile]);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, refresh, refreshProfile, applyServerBalance, signOut, loadConfig }),
    [state, refresh, refreshProfile, applyServerBalance, signOut, loadConfig],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
