import { CircleAlert, CircleCheck, KeyRound } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { ROUTES } from '../../../contract/routes';
import { FormMessage } from '../../components/FormMessage';
import { StandalonePage } from '../../components/StandalonePage';
import { TextField } from '../../components/TextField';
import { errorCode, errorMessage } from '../../lib/api';
import { Link, useNavigate, useSearchParams } from '../../lib/router';
import { resetPassword } from '../../lib/session/auth-api';
import { useDocumentTitle } from '../../lib/use-document-title';

export const RESET_TEXT = {
  title: 'Choose a new password',
  done: 'Your password has been updated.',
  backToSignIn: 'Back to sign in',
  invalidLink: 'This reset link is invalid or has expired. Request a new one from the sign-in form.',
  mismatch: 'The passwords do not match.',
  tooShort: 'That password is too short. Use at least 8 characters.',
  failed: 'We could not update your password. Please try again.',
  submit: 'Update password',
  processing: 'Processing...',
} as const;

type Outcome = 'form' | 'done' | 'invalid';

/**
 * Where the password-reset mail's link lands (/reset-password?token=...). better-auth sends an expired
 * or unknown link here with ?error=INVALID_TOKEN instead of a token.
 */
export function ResetPasswordPage() {
  useDocumentTitle('Reset your password');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const linkUsable = Boolean(token) && !params.get('error');
  const [outcome, setOutcome] = useState<Outcome>(linkUsable ? 'form' : 'invalid');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const errorId = useId();
  // Both fields take the new password and point at the one message under the form.
  const newPasswordInput = {
    type: 'password',
    autoComplete: 'new-password',
    required: true,
    'aria-describedby': error ? errorId : undefined,
  } as const;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !token) return;
    if (password !== confirm) {
      setError(RESET_TEXT.mismatch);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await resetPassword(password, token);
      if (result.ok) {
        setOutcome('done');
        return;
      }
      const code = errorCode(result.data);
      if (code === 'INVALID_TOKEN') setOutcome('invalid');
      else if (code === 'PASSWORD_TOO_SHORT') setError(RESET_TEXT.tooShort);
      else setError(errorMessage(result.data) ?? RESET_TEXT.failed);
    } catch {
      setError(RESET_TEXT.failed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <StandalonePage className="pp-auth-page" mainClassName="pp-auth-page__main">
      <section className="pp-auth-card pp-auth-card--page" aria-labelledby={titleId}>
        <span className="pp-auth-card__badge" data-tone={outcome === 'invalid' ? 'error' : undefined}>
          {outcome === 'done' ? (
            <CircleCheck size={28} aria-hidden="true" />
          ) : outcome === 'invalid' ? (
            <CircleAlert size={28} aria-hidden="true" />
          ) : (
            <KeyRound size={28} aria-hidden="true" />
          )}
        </span>
        <h1 id={titleId} className="pp-auth-card__title">
          {outcome === 'done'
            ? 'Password updated'
            : outcome === 'invalid'
              ? 'This link can’t be used'
              : RESET_TEXT.title}
        </h1>

        {outcome === 'form' ? (
          <>
            <p className="pp-auth-card__lead">Pick a password you don’t use elsewhere, at least 8 characters long.</p>
            <form className="pp-auth-form" onSubmit={onSubmit}>
              <TextField
                id={`${titleId}-new`}
                label="New password"
                name="new-password"
                {...newPasswordInput}
                value={password}
                onValueChange={setPassword}
              />
              <TextField
                id={`${titleId}-confirm`}
                label="Confirm new password"
                name="confirm-password"
                {...newPasswordInput}
                aria-invalid={error === RESET_TEXT.mismatch}
                value={confirm}
                onValueChange={setConfirm}
              />
              <button type="submit" className="pp-button pp-button--primary pp-button--lg" disabled={busy}>
                {busy ? RESET_TEXT.processing : RESET_TEXT.submit}
              </button>
            </form>
            <FormMessage
              id={errorId}
              className="pp-auth-card__message"
              message={error ? { tone: 'error', text: error } : null}
            />
          </>
        ) : (
          <>
            <p className="pp-auth-card__lead" role={outcome === 'invalid' ? 'alert' : 'status'}>
              {outcome === 'done' ? RESET_TEXT.done : RESET_TEXT.invalidLink}
            </p>
            <button
              type="button"
              className={`pp-button pp-button--lg pp-auth-card__wide ${outcome === 'done' ? 'pp-button--primary' : 'pp-button--secondary'}`}
              onClick={() => navigate(ROUTES.home)}
            >
              {RESET_TEXT.backToSignIn}
            </button>
          </>
        )}
      </section>
      {outcome === 'form' ? (
        <p className="pp-auth-page__aside">
          Remembered it? <Link to={ROUTES.home}>{RESET_TEXT.backToSignIn}</Link>
        </p>
      ) : null}
    </StandalonePage>
  );
}
