import { Copy, Eye, EyeOff, RefreshCw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { FormMessage, type FormMessageValue } from '../../components/FormMessage';
import { errorMessage } from '../../lib/api';
import { ConfirmInPlace } from './ConfirmInPlace';
import { copyText } from './copy-text';
import { getWebhookSecret, rotateWebhookSecret } from './developer-api';

export const WEBHOOK_SECRET_TEXT = {
  title: 'Webhook signing secret',
  note: 'Deliveries to your webhook URL are signed with this secret (Standard Webhooks): check the signature before you trust one.',
  label: 'Signing secret',
  show: 'Show',
  hide: 'Hide',
  copy: 'Copy',
  rotate: 'Rotate secret',
  rotateWarning:
    'Rotate the secret? Deliveries are signed with the new one from now on: a receiver that checks with the old one refuses them.',
  confirmRotate: 'Rotate secret now',
  keep: 'Keep it',
  rotated: 'The secret is rotated. Update it where your receiver checks signatures.',
  loadFailed: 'We could not load your webhook secret. Reload the page to try again.',
  rotateFailed: 'The secret could not be rotated. Check your connection and try again.',
} as const;

/** `whsec_` and dots: the secret's kind shows, not its value. */
export const maskedSecret = (secret: string) => `${secret.startsWith('whsec_') ? 'whsec_' : ''}${'•'.repeat(24)}`;

/** The account's webhook signing secret: masked until shown, copied, rotated after a confirmation. */
export function WebhookSecretPanel() {
  const titleId = useId();
  const fieldId = useId();
  const [secret, setSecret] = useState<string | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessageValue | null>(null);

  useEffect(() => {
    let live = true;
    void getWebhookSecret()
      .catch(() => null)
      .then((result) => {
        if (!live) return;
        if (result?.ok && result.data?.secret) setSecret(result.data.secret);
        else setLoadFailed(true);
      });
    return () => {
      live = false;
    };
  }, []);

  async function onRotate() {
    setBusy(true);
    setMessage(null);
    const result = await rotateWebhookSecret().catch(() => null);
    setBusy(false);
    if (result?.ok && result.data?.secret) {
      setSecret(result.data.secret);
      setLoadFailed(false);
      setConfirming(false);
      setMessage({ tone: 'success', text: WEBHOOK_SECRET_TEXT.rotated });
      return;
    }
    const reason = result && result.status < 500 ? errorMessage(result.data) : null;
    setMessage({ tone: 'error', text: reason ?? WEBHOOK_SECRET_TEXT.rotateFailed });
  }

  return (
    <section className="pp-developer__webhooks" aria-labelledby={titleId}>
      <h3 id={titleId} className="pp-developer__subtitle">
        {WEBHOOK_SECRET_TEXT.title}
      </h3>
      <p className="pp-account__note">{WEBHOOK_SECRET_TEXT.note}</p>
      {loadFailed && !secret ? (
        <FormMessage message={{ tone: 'error', text: WEBHOOK_SECRET_TEXT.loadFailed }} />
      ) : secret ? (
        <>
          <label className="pp-field__label" htmlFor={fieldId}>
            {WEBHOOK_SECRET_TEXT.label}
          </label>
          <div className="pp-developer__row">
            <input
              id={fieldId}
              className="pp-input pp-developer__secret"
              type="text"
              readOnly
              spellCheck={false}
              value={shown ? secret : maskedSecret(secret)}
            />
            <button
              type="button"
              className="pp-button pp-button--secondary"
              aria-pressed={shown}
              onClick={() => setShown((on) => !on)}
            >
              {shown ? <EyeOff size={18} aria-hidden="true" /> : <Eye size={18} aria-hidden="true" />}
              {shown ? WEBHOOK_SECRET_TEXT.hide : WEBHOOK_SECRET_TEXT.show}
            </button>
            <button
              type="button"
              className="pp-button pp-button--secondary"
              onClick={async () => setMessage(await copyText(secret))}
            >
              <Copy size={18} aria-hidden="true" />
              {WEBHOOK_SECRET_TEXT.copy}
            </button>
          </div>
        </>
      ) : null}
      {secret || loadFailed ? (
        confirming ? (
          <ConfirmInPlace
            label="Confirm rotating the webhook secret"
            warning={WEBHOOK_SECRET_TEXT.rotateWarning}
            confirmText={WEBHOOK_SECRET_TEXT.confirmRotate}
            keepText={WEBHOOK_SECRET_TEXT.keep}
            busy={busy}
            onConfirm={() => void onRotate()}
            onKeep={() => setConfirming(false)}
          />
        ) : (
          <div>
            <button type="button" className="pp-button pp-button--secondary" onClick={() => setConfirming(true)}>
              <RefreshCw size={18} aria-hidden="true" />
              {WEBHOOK_SECRET_TEXT.rotate}
            </button>
          </div>
        )
      ) : null}
      <FormMessage message={message} />
    </section>
  );
}
