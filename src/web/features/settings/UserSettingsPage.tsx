import { BadgeCheck, CircleCheck, Coins, LogOut, Mail, Settings, UserRound } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { SETTINGS_MESSAGES } from '../../../contract/account-settings';
import {
  type AccountDetails,
  EMAIL_CHANGED_PARAM,
  EMAIL_TAKEN_ERROR,
  VERIFICATION_RESEND_COOLDOWN_SECONDS,
} from '../../../contract/accounts';
import { ROUTES } from '../../../contract/routes';
import { FormMessage, type FormMessageValue } from '../../components/FormMessage';
import { PageHeader } from '../../components/PageHeader';
import { SignInPromptCard } from '../../components/SignInPromptCard';
import { errorMessage, retryAfterSeconds } from '../../lib/api';
import { formatTokens } from '../../lib/format-cost';
import { Link, useNavigate, useSearchParams } from '../../lib/router';
import { sendVerificationEmail } from '../../lib/session/auth-api';
import { useAuth, usePublicConfig } from '../../lib/session/auth-context';
import { useDocumentTitle } from '../../lib/use-document-title';
import { getAccountDetails } from './account-api';
import { DeveloperCard } from './DeveloperCard';
import { SignInDetailsCard } from './SignInDetailsCard';
import { YourDataCard } from './YourDataCard';

export const SETTINGS_TEXT = {
  verified: 'Email verified',
  verify: 'Verify Email',
  resendIn: (seconds: number) => `Resend in ${seconds}s`,
  sent: 'Verification email sent. Check your inbox.',
  recentlySent: 'A verification email was sent less than a minute ago. Check your inbox.',
  sendFailed: 'We could not send the verification email. Please try again.',
  outbox: 'Open the development outbox',
  logout: 'Logout',
  logoutFailed: 'We could not sign you out. Check your connection and try again.',
  signedOutTitle: 'Sign in to see your account',
  signedOutText: 'Please sign in. Your email, token balance and email verification appear here once you do.',
  signIn: 'Sign in or create an account',
  emailChanged: 'Your email address is changed. You sign in with it from now on.',
  emailLinkFailed: 'That email change link can’t be used: it has expired or was used already. Ask for a new one below.',
  detailsFailed: 'We could not load your name and sign-in methods. Reload the page to try again.',
} as const;

function secondsUntil(deadline: number | null): number {
  return deadline === null ? 0 : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

/** Seconds left until `deadline` (ms since epoch), re-rendering once a second until it passes. */
function useCountdown(deadline: number | null): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      setTick((tick) => tick + 1);
      if (Date.now() >= deadline) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  return secondsUntil(deadline);
}

function VerifyEmail() {
  const { refreshProfile } = useAuth();
  const config = usePublicConfig();
  const [deadline, setDeadline] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessageValue | null>(null);
  const secondsLeft = useCountdown(deadline);
  const messageId = useId();

  const startCooldown = (seconds: number) => setDeadline(Date.now() + seconds * 1000);

  async function onVerify() {
    setBusy(true);
    setMessage(null);
    try {
      const result = await sendVerificationEmail();
      if (result.ok) {
        startCooldown(retryAfterSeconds(result.data) ?? VERIFICATION_RESEND_COOLDOWN_SECONDS);
        setMessage({ tone: 'success', text: SETTINGS_TEXT.sent });
      } else if (result.status === 429) {
        // The button counts down; the server's "Please wait N seconds" would stand still beside it.
        startCooldown(retryAfterSeconds(result.data) ?? VERIFICATION_RESEND_COOLDOWN_SECONDS);
        setMessage({ tone: 'success', text: SETTINGS_TEXT.recentlySent });
      } else {
        setMessage({ tone: 'error', text: errorMessage(result.data) ?? SETTINGS_TEXT.sendFailed });
        // 409 (verified meanwhile) or 401 (signed out meanwhile): the profile tells the truth.
        if (result.status === 409 || result.status === 401) void refreshProfile();
      }
    } catch {
      setMessage({ tone: 'error', text: SETTINGS_TEXT.sendFailed });
    } finally {
      setBusy(false);
    }
  }

  const coolingDown = secondsLeft > 0;
  return (
    <div className="pp-verify">
      <button
        type="button"
        className="pp-button pp-button--primary"
        disabled={busy || coolingDown}
        aria-describedby={messageId}
        onClick={() => void onVerify()}
      >
        <Mail size={18} aria-hidden="true" />
        {coolingDown ? <span className="pp-tabular">{SETTINGS_TEXT.resendIn(secondsLeft)}</span> : SETTINGS_TEXT.verify}
      </button>
      <FormMessage id={messageId} message={message} />
      {config?.devMailUrl ? (
        <p className="pp-verify__hint">
          Development server:{' '}
          <a href={config.devMailUrl} target="_blank" rel="noreferrer">
            {SETTINGS_TEXT.outbox}
          </a>
        </p>
      ) : null}
    </div>
  );
}

function AccountCard() {
  const { user, profile, signOut } = useAuth();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const email = profile?.email ?? user?.email ?? '';
  const verified = profile?.emailVerified ?? user?.emailVerified ?? false;

  async function onLogout() {
    setSigningOut(true);
    setError(null);
    const done = await signOut();
    if (done) {
      navigate(ROUTES.home);
      return;
    }
    setSigningOut(false);
    setError(SETTINGS_TEXT.logoutFailed);
  }

  return (
    <section className="pp-card pp-account" aria-labelledby={titleId}>
      <h2 id={titleId} className="pp-card__title">
        Account
      </h2>
      <dl className="pp-account__rows">
        <div className="pp-account__row">
          <dt>
            <UserRound size={18} aria-hidden="true" />
            Email
          </dt>
          <dd className="pp-account__email" data-testid="account-email">
            {email}
          </dd>
        </div>
        <div className="pp-account__row">
          <dt>
            <Coins size={18} aria-hidden="true" />
            Token balance
          </dt>
          <dd>
            <span className="pp-account__tokens pp-tabular" data-testid="account-tokens">
              {profile ? formatTokens(profile.tokens) : '—'}
            </span>
            <Link to={ROUTES.tokens} className="pp-account__link">
              Buy tokens
            </Link>
          </dd>
        </div>
        <div className={`pp-account__row${verified ? '' : ' pp-account__row--top'}`}>
          <dt>
            <BadgeCheck size={18} aria-hidden="true" />
            Email verification
          </dt>
          <dd>
            {verified ? (
              <span className="pp-verified" data-testid="email-verified">
                <CircleCheck size={20} aria-hidden="true" />
                {SETTINGS_TEXT.verified}
              </span>
            ) : (
              <>
                <p className="pp-account__note">Verify your address to use the tools and buy tokens.</p>
                <VerifyEmail />
              </>
            )}
          </dd>
        </div>
      </dl>
      <div className="pp-account__footer">
        <button
          type="button"
          className="pp-button pp-button--secondary"
          disabled={signingOut}
          onClick={() => void onLogout()}
        >
          <LogOut size={18} aria-hidden="true" />
          {SETTINGS_TEXT.logout}
        </button>
        <FormMessage message={error ? { tone: 'error', text: error } : null} />
      </div>
    </section>
  );
}

/** GET /api/account for the signed-in user, again whenever the user or their email changes. */
function useAccountDetails() {
  const { user } = useAuth();
  const [details, setDetails] = useState<AccountDetails | null>(null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(async () => {
    try {
      const result = await getAccountDetails();
      setFailed(!(result.ok && result.data));
      if (result.ok && result.data) setDetails(result.data);
    } catch {
      setFailed(true);
    }
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the user's id and email are what a reload follows
  useEffect(() => {
    void load();
  }, [load, user?.id, user?.email]);
  return { details, failed, reload: load };
}

/** After the link of an email change: it worked, or better-auth sent ?error= (expired, used), or the address was taken meanwhile. */
function EmailChangeOutcome() {
  const [params] = useSearchParams();
  if (!params.has(EMAIL_CHANGED_PARAM)) return null;
  const error = params.get('error');
  const failure = error === EMAIL_TAKEN_ERROR ? SETTINGS_MESSAGES.emailTakenMeanwhile : SETTINGS_TEXT.emailLinkFailed;
  return (
    <FormMessage
      className="pp-form-message pp-settings__outcome"
      testId="email-change-outcome"
      message={{
        tone: error === null ? 'success' : 'error',
        text: error === null ? SETTINGS_TEXT.emailChanged : failure,
      }}
    />
  );
}

function SignedInCards() {
  const { user, profile, refresh } = useAuth();
  const { details, failed, reload } = useAccountDetails();
  const onChanged = useCallback(() => {
    void reload();
    void refresh();
  }, [reload, refresh]);
  return (
    <>
      <EmailChangeOutcome />
      <AccountCard />
      {details ? (
        <SignInDetailsCard details={details} onChanged={onChanged} />
      ) : failed ? (
        <FormMessage message={{ tone: 'error', text: SETTINGS_TEXT.detailsFailed }} />
      ) : null}
      <DeveloperCard />
      <YourDataCard email={profile?.email ?? user?.email ?? ''} hasPassword={details?.hasPassword ?? true} />
    </>
  );
}

function LoadingCard() {
  return (
    <div className="pp-card pp-account" data-testid="settings-loading" aria-busy="true">
      <span className="pp-visually-hidden" role="status">
        Loading your account…
      </span>
      <span className="pp-skeleton pp-skeleton--title" />
      <span className="pp-skeleton pp-skeleton--field" />
      <span className="pp-skeleton pp-skeleton--field" />
      <span className="pp-skeleton pp-skeleton--field" />
    </div>
  );
}

export function UserSettingsPage() {
  useDocumentTitle('User Settings');
  const { status } = useAuth();
  return (
    <div className="pp-page">
      <PageHeader
        icon={Settings}
        title="User Settings"
        summary="Your account’s email address, token balance and email verification; your name, email and password to change; your data to download or delete."
      />
      {status === 'loading' ? (
        <LoadingCard />
      ) : status === 'signed-in' ? (
        <SignedInCards />
      ) : (
        <SignInPromptCard
          title={SETTINGS_TEXT.signedOutTitle}
          text={SETTINGS_TEXT.signedOutText}
          action={SETTINGS_TEXT.signIn}
        />
      )}
    </div>
  );
}
