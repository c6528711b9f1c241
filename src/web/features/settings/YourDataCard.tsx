import { Download, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { ROUTES } from '../../../contract/routes';
import { FormMessage } from '../../components/FormMessage';
import { ACCOUNT_EXPORT_URL, deleteAccount } from '../../lib/creations/creations-api';
import { useNavigate } from '../../lib/router';
import { useAuth } from '../../lib/session/auth-context';

export const DATA_TEXT = {
  exportNote: 'A zip of your results, with a JSON file of your jobs and purchases.',
  export: 'Download my data',
  delete: 'Delete account',
  deleteWarning:
    'Deleting your account removes your uploaded images, your results, your share links and your personal data (email address, name and sign-in). Unused tokens are lost. It cannot be undone. The token ledger keeps its rows of charges, refunds and purchases, anonymised: nothing in them points to you.',
  confirmLabel: 'Type your email address to confirm',
  confirm: 'Delete my account for good',
  cancel: 'Keep my account',
  deleteFailed: 'Your account could not be deleted. Please try again.',
} as const;

/** Export everything the user made, or delete the account after a confirmation that says what goes. */
export function YourDataCard({ email }: { email: string }) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const titleId = useId();
  const confirmId = useId();
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  async function onDelete() {
    setDeleting(true);
    setError(null);
    const deleted = await deleteAccount().catch(() => false);
    if (!deleted) {
      setDeleting(false);
      setError(DATA_TEXT.deleteFailed);
      return;
    }
    await signOut(); // the server ended the session with the account; this clears the page's state
    navigate(ROUTES.home);
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
          <div className="pp-account__footer">
            <button type="submit" className="pp-button pp-button--danger" disabled={!matches || deleting}>
              {DATA_TEXT.confirm}
            </button>
            <button type="button" className="pp-button pp-button--secondary" onClick={() => setConfirming(false)}>
              {DATA_TEXT.cancel}
            </button>
          </div>
          <FormMessage message={error ? { tone: 'error', text: error } : null} />
        </form>
      ) : null}
    </section>
  );
}
