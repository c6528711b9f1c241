import { createContext, useContext, useEffect, useState } from 'react';
import type { Profile, PublicConfig } from '../../../contract/accounts';
import { type AuthUser, getPublicConfig } from './auth-api';

export type AuthStatus = 'loading' | 'signed-out' | 'signed-in';

export type AuthState = {
  /** 'loading' until the first check answers; pages show a neutral placeholder meanwhile. */
  status: AuthStatus;
  user: AuthUser | null;
  /** The signed-in user's profile (tokens, flags); null when signed out or not readable right now. */
  profile: Profile | null;
};

export type AuthContextValue = AuthState & {
  /** Re-reads the session and the profile. `announce` tells the other tabs to do the same. */
  refresh(options?: { announce?: boolean }): Promise<void>;
  /** Re-reads the profile only (balance after a job, verification). */
  refreshProfile(): Promise<void>;
  /**
   * Shows the balance a server answer carries (tool calls answer with `balance`). Takes the answer's
   * body, not a number: the client never computes a balance itself. Bodies without one are ignored.
   */
  applyServerBalance(body: unknown): void;
  /** Signs out; false when the server could not be reached or refused. */
  signOut(): Promise<boolean>;
  /** GET /api/config, once per page load; null when it cannot be read. */
  loadConfig(): Promise<PublicConfig | null>;
};

export const AuthContext = createContext<AuthContextValue | null>(null);

/** The live auth state: {status, user, profile, refresh, signOut}. Needs <AuthProvider> above. */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth() needs an <AuthProvider> above it');
  return value;
}

/** What the server offers (Google sign-in, development outbox); null until known or when unreadable. */
export function usePublicConfig(): PublicConfig | null {
  const { loadConfig } = useAuth();
  const [config, setConfig] = useState<PublicConfig | null>(null);
  useEffect(() => {
    let live = true;
    void loadConfig().then((value) => {
      if (live) setConfig(value);
    });
    return () => {
      live = false;
    };
  }, [loadConfig]);
  return config;
}

/**
 * The support address (SUPPORT_EMAIL), null until known or when unset. Read through the page's
 * config (once per page load) under <AuthProvider>; a screen outside it (the error screen, which
 * replaces Root) asks GET /api/config itself.
 */
export function useSupportEmail(): string | null {
  const loadConfig = useContext(AuthContext)?.loadConfig;
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const config = loadConfig
      ? loadConfig()
      : getPublicConfig().then(
          (result) => (result.ok ? result.data : null),
          () => null,
        );
    void config.then((value) => {
      if (live) setEmail(value?.supportEmail ?? null);
    });
    return () => {
      live = false;
    };
  }, [loadConfig]);
  return email;
}
