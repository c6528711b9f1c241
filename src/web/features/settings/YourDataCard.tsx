import { Download, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { ACCOUNT_ROUTES } from '../../../contract/accounts';
import { FormMessage, type FormMessageValue } from '../../components/FormMessage';
import { PasswordField } from '../../components/PasswordField';
import { errorMessage } from '../../lib/api';
import { ACCOUNT_EXPORT_URL, deleteAccount } from '../../lib/creations/creations-api';
import { useNavigate } from '../../lib/router';
import { useAuth } from '../../lib/session/auth-context';
import { GoogleReauthButton } from './GoogleReauthButton';
import { GOOGLE_REAUTH_TEXT, useGoogleReauth } from './use-google-reauth';

export const DATA_TEXT = {
  exportNote: 'A zip of your results, with a JSON file of your jobs and purchases.',
  export: 'Download my data',
  delete: 'Delete account',
  deleteWarning:
    'Deleting your account removes your uploaded images, your results, your share links and your personal data (email address, name and sign-in). Unused tokens are lost. It cannot be undone. The token ledger keeps its rows of charges, refunds and purchases, anonymised: nothing in them points to you.',
  confirmLabel: 'Type your email address to confirm',
  confirm: 'Delete my account for good',
  cancel: 'Keep my account',
  passwordLabel: 'Your password',
  googleNote:
    'You sign in with Google: if your last sign-in was more than 10 minutes ago, we ask you to sign in with Google again.',
  deleteFailed: 'Your account could not be deleted. Check your connection and try again.',
} as const;

/**
 * Export everything the user made, or delete the account after a confirmation that says what goes.
 * The server asks for the password (or a new Google sign-in) when the last sign-in is not recent:
 * the form asks for the password up front, and offers Google when the server says so.
 */
export function YourDataCard({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const titleId = useId();
  const confirmId = useId();
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [needsGoogle, setNeedsGoogle] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState<FormMessageValue | null>(null);
  const google = useGoogleReauth((result) => {
    if (result.ok) setNeedsGoogle(false);
    setMessage(result.ok ? { tone: 'success', text: GOOGLE_REAUTH_TEXT.done } : { tone: 'error', text: result.error });
  });
  const matches = typed.trim().toLowerCase() === email.toLowerCase() && (!hasPassword || password !== '');

  async function onDelete() {
    setDeleting(true);
    setMessage(null);
    const result = await deleteAccount(hasPassword ? password : undefined).catch(() => null);
    if (!result?.ok) {
      setDeleting(false);
      if (result?.status === 403 && result.data?.reauth === 'google') setNeedsGoogle(true);
      // The server's sentence says what to do (the password, Google again); a lost connection, ours.
      const reason = result && result.status < 500 ? errorMessage(result.data) : null;
      setMessage({ tone: 'error', text: reason ?? DATA_TEXT.deleteFailed });
      return;
    }
    await signOut(); // the server ended the session with the account; this clears the page's state
    navigate(ACCOUNT_ROUTES.accountDeleted);
  }

  return (
    <section className="pp-card pp-account" aria-labelledby={titleId}>
      <h2 id={titleId} className="pp-card__title">
        Your data
      </h2>
      <p className="pp-account__note">{DATA_TEXT.exportNote}</p>
      <div className="pp-account__footer">
        <a className="pp-button pp-button--secondary" href={ACCOUNT_EXPORT_URL} download>
          <Download size={18} aria-hidden="true" />
          {DATA_TEXT.export}
        </a>
        <button
          type="button"
          className="pp-button pp-button--secondary"
          aria-expanded={confirming}
          onClick={() => setConfirming((open) => !open)}
        >
          <Trash2 size={18} aria-hidden="true" />
          {DATA_TEXT.delete}
        </button>
      </div>
      {confirming ? (
        <form
          className="pp-account__delete"
          aria-label="Confirm account deletion"
          onSubmit={(event) => {
            event.preventDefault();
            if (matches) void onDelete();
          }}
        >
          <p className="pp-account__note" data-testid="delete-warning">
            {DATA_TEXT.deleteWarning}
          </p>
          <label className="pp-field__label" htmlFor={confirmId}>
            {DATA_TEXT.confirmLabel}
          </label>
          <input
            id={confirmId}
            className="pp-input"
            type="email"
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
          {hasPassword ? (
            <PasswordField
              id={`${confirmId}-password`}
              label={DATA_TEXT.passwordLabel}
              autoComplete="current-password"
              value={password}
              onValueChange={setPassword}
            />
          ) : (
            <p className="pp-account__note">{DATA_TEXT.googleNote}</p>
          )}
          <div className="pp-account__footer">
            <button type="submit" className="pp-button pp-button--danger" disabled={!matches || deleting}>
              {DATA_TEXT.confirm}
            </button>
            {needsGoogle ? <GoogleReauthButton google={google} /> : null}
            <button type="button" className="pp-button pp-button--secondary" onClick={() => setConfirming(false)}>
              {DATA_TEXT.cancel}
            </button>
          </div>
          <FormMessage message={message} />
        </form>
      ) : null}
    </section>
  );
}
