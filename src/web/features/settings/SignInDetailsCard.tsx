import { AtSign, KeyRound, UserRound } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { SETTINGS_MESSAGES } from '../../../contract/account-settings';
import { type AccountDetails, NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../contract/accounts';
import { FormMessage, type FormMessageValue } from '../../components/FormMessage';
import { PasswordField } from '../../components/PasswordField';
import { TextField } from '../../components/TextField';
import { type ApiResult, errorCode, errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/session/auth-context';
import { changePassword, requestEmailChange, setFirstPassword, updateName } from './account-api';
import { GoogleReauthButton } from './GoogleReauthButton';
import { GOOGLE_REAUTH_TEXT, useGoogleReauth } from './use-google-reauth';

export const DETAILS_TEXT = {
  title: 'Name, email and password',
  nameLabel: 'Your name',
  saveName: 'Save name',
  nameSaved: 'Your name is saved.',
  emailLabel: 'New email address',
  emailNote:
    'We send a link to the new address. Your email changes once you open it; your current address gets a notice.',
  sendLink: 'Send confirmation link',
  openEmail: 'Change email…',
  openPassword: 'Change password…',
  openSetPassword: 'Set a password…',
  hasPassword: 'You sign in with your email address and a password.',
  yourPassword: 'Your password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  passwordHint: `At least ${PASSWORD_MIN_LENGTH} characters. Your other devices are signed out when it changes.`,
  changePassword: 'Change password',
  passwordChanged: 'Your password is changed. Your other devices were signed out.',
  setPasswordNote: 'You sign in with Google. Set a password to sign in with your email address too.',
  setPassword: 'Set password',
  passwordSet: 'Your password is set. You can now sign in with your email address and this password.',
  tooManyTries: 'Too many tries. Please wait a few minutes and try again.',
  failed: 'That did not work. Check your connection and try again.',
} as const;

/** The sentence for an answer of better-auth or of our routes that is not a success. */
function failureText(result: ApiResult<unknown>): string {
  if (result.status === 429) return DETAILS_TEXT.tooManyTries;
  if (errorCode(result.data) === 'INVALID_PASSWORD') return SETTINGS_MESSAGES.currentPasswordWrong;
  return errorMessage(result.data) ?? DETAILS_TEXT.failed;
}

const reauthOf = (result: ApiResult<unknown>) =>
  result.status === 403 && result.data && typeof result.data === 'object'
    ? (result.data as { reauth?: unknown }).reauth
    : undefined;

/** Runs a request for a form: busy while it goes, a message after. */
function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessageValue | null>(null);
  async function run(work: () => Promise<FormMessageValue | null>) {
    setBusy(true);
    setMessage(null);
    try {
      setMessage(await work());
    } catch {
      setMessage({ tone: 'error', text: DETAILS_TEXT.failed });
    } finally {
      setBusy(false);
    }
  }
  return { busy, message, setMessage, run };
}

/** One part of the card: its heading, and its form (which carries its own accessible name). */
function Row({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="pp-details__row">
      <h3 className="pp-details__title">
        {icon}
        {title}
      </h3>
      <div className="pp-details__body">{children}</div>
    </div>
  );
}

/** A part whose form opens on request, so that the card stays short until the user wants a change. */
function Disclosure({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <>
      <div className="pp-details__actions">
        <button
          type="button"
          className="pp-button pp-button--secondary"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((current) => !current)}
        >
          {label}
        </button>
      </div>
      <div id={panelId} hidden={!open}>
        {open ? children : null}
      </div>
    </>
  );
}

function GoogleAgain({ onDone }: { onDone: (message: FormMessageValue) => void }) {
  const google = useGoogleReauth((result) =>
    onDone(result.ok ? { tone: 'success', text: GOOGLE_REAUTH_TEXT.done } : { tone: 'error', text: result.error }),
  );
  return <GoogleReauthButton google={google} />;
}

function NameForm({ name, onSaved }: { name: string; onSaved: () => void }) {
  const id = useId();
  const [value, setValue] = useState(name);
  const { busy, message, run } = useSubmit();
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(async () => {
      const trimmed = value.trim();
      if (trimmed === '') return { tone: 'error', text: SETTINGS_MESSAGES.nameEmpty };
      const result = await updateName(trimmed);
      if (!result.ok) return { tone: 'error', text: failureText(result) };
      setValue(trimmed);
      onSaved();
      return { tone: 'success', text: DETAILS_TEXT.nameSaved };
    });
  }
  return (
    <form className="pp-details__form" onSubmit={onSubmit} aria-label="Change your name">
      <TextField
        id={`${id}-name`}
        label={DETAILS_TEXT.nameLabel}
        autoComplete="name"
        maxLength={NAME_MAX_LENGTH}
        value={value}
        onValueChange={setValue}
        aria-describedby={`${id}-message`}
      />
      <div className="pp-details__actions">
        <button type="submit" className="pp-button pp-button--secondary" disabled={busy || value.trim() === name}>
          {DETAILS_TEXT.saveName}
        </button>
      </div>
      <FormMessage id={`${id}-message`} className="pp-form-message" message={message} />
    </form>
  );
}

function EmailForm({ details }: { details: AccountDetails }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [needsGoogle, setNeedsGoogle] = useState(false);
  const { busy, message, setMessage, run } = useSubmit();
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(async () => {
      const result = await requestEmailChange(email.trim(), details.hasPassword ? password : undefined);
      if (result.ok) {
        setEmail('');
        setPassword('');
        setNeedsGoogle(false);
        return { tone: 'success', text: result.data?.message ?? SETTINGS_MESSAGES.emailChangeSent(email.trim()) };
      }
      if (reauthOf(result) === 'google') setNeedsGoogle(true);
      return { tone: 'error', text: failureText(result) };
    });
  }
  return (
    <form className="pp-details__form" onSubmit={onSubmit} aria-label="Change your email">
      <p className="pp-account__note">{DETAILS_TEXT.emailNote}</p>
      <TextField
        id={`${id}-email`}
        label={DETAILS_TEXT.emailLabel}
        type="email"
        autoComplete="email"
        required
        value={email}
        onValueChange={setEmail}
        aria-describedby={`${id}-message`}
      />
      {details.hasPassword ? (
        <PasswordField
          id={`${id}-password`}
          label={DETAILS_TEXT.yourPassword}
          autoComplete="current-password"
          required
          value={password}
          onValueChange={setPassword}
        />
      ) : null}
      <div className="pp-details__actions">
        <button type="submit" className="pp-button pp-button--primary" disabled={busy}>
          {DETAILS_TEXT.sendLink}
        </button>
        {needsGoogle ? <GoogleAgain onDone={setMessage} /> : null}
      </div>
      <FormMessage id={`${id}-message`} className="pp-form-message" message={message} />
    </form>
  );
}

function PasswordForm({ details, onChanged }: { details: AccountDetails; onChanged: () => void }) {
  const id = useId();
  const { refresh } = useAuth();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [needsGoogle, setNeedsGoogle] = useState(false);
  const { busy, message, setMessage, run } = useSubmit();
  const setting = !details.hasPassword;
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(async () => {
      if (next.length < PASSWORD_MIN_LENGTH) return { tone: 'error', text: SETTINGS_MESSAGES.passwordTooShort };
      const result = setting ? await setFirstPassword(next) : await changePassword(current, next);
      if (!result.ok) {
        if (reauthOf(result) === 'google') setNeedsGoogle(true);
        return { tone: 'error', text: failureText(result) };
      }
      setCurrent('');
      setNext('');
      setNeedsGoogle(false);
      await refresh();
      onChanged();
      return { tone: 'success', text: setting ? DETAILS_TEXT.passwordSet : DETAILS_TEXT.passwordChanged };
    });
  }
  return (
    <form
      className="pp-details__form"
      onSubmit={onSubmit}
      aria-label={setting ? 'Set a password' : 'Change your password'}
    >
      {/* For password managers: the account this password belongs to. */}
      <input type="email" hidden readOnly autoComplete="username" value={details.email} />
      {setting ? null : (
        <PasswordField
          id={`${id}-current`}
          label={DETAILS_TEXT.currentPassword}
          autoComplete="current-password"
          required
          value={current}
          onValueChange={setCurrent}
        />
      )}
      <PasswordField
        id={`${id}-new`}
        label={DETAILS_TEXT.newPassword}
        autoComplete="new-password"
        hint={DETAILS_TEXT.passwordHint}
        required
        value={next}
        onValueChange={setNext}
      />
      <div className="pp-details__actions">
        <button type="submit" className="pp-button pp-button--primary" disabled={busy}>
          {setting ? DETAILS_TEXT.setPassword : DETAILS_TEXT.changePassword}
        </button>
        {needsGoogle ? <GoogleAgain onDone={setMessage} /> : null}
      </div>
      <FormMessage id={`${id}-message`} className="pp-form-message" message={message} />
    </form>
  );
}

/** The name, the email and the password, each changed on its own (issue 38). */
export function SignInDetailsCard({ details, onChanged }: { details: AccountDetails; onChanged: () => void }) {
  const titleId = useId();
  return (
    <section className="pp-card pp-account pp-details" aria-labelledby={titleId}>
      <h2 id={titleId} className="pp-card__title">
        {DETAILS_TEXT.title}
      </h2>
      <Row icon={<UserRound size={18} aria-hidden="true" />} title="Name">
        <NameForm name={details.name} onSaved={onChanged} />
      </Row>
      <Row icon={<AtSign size={18} aria-hidden="true" />} title="Email">
        <p className="pp-account__email">{details.email}</p>
        <Disclosure label={DETAILS_TEXT.openEmail}>
          <EmailForm details={details} />
        </Disclosure>
      </Row>
      <Row icon={<KeyRound size={18} aria-hidden="true" />} title="Password">
        <p className="pp-account__note">
          {details.hasPassword ? DETAILS_TEXT.hasPassword : DETAILS_TEXT.setPasswordNote}
        </p>
        <Disclosure label={details.hasPassword ? DETAILS_TEXT.openPassword : DETAILS_TEXT.openSetPassword}>
          <PasswordForm details={details} onChanged={onChanged} />
        </Disclosure>
      </Row>
    </section>
  );
}
