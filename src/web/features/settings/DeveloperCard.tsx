import { BookOpen, Copy, KeyRound, Plus, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { API_KEY_NAME_MAX_LENGTH, apiKeyNameProblem } from '../../../contract/api-key-rules';
import type { ApiKeySummary, CreatedApiKey } from '../../../contract/api-keys';
import { FormMessage, type FormMessageValue } from '../../components/FormMessage';
import { errorMessage } from '../../lib/api';
import { ConfirmInPlace } from './ConfirmInPlace';
import { copyText } from './copy-text';
import { createApiKey, DEVELOPERS_PAGE, listApiKeys, revokeApiKey } from './developer-api';
import { WebhookSecretPanel } from './WebhookSecretPanel';

export const DEVELOPER_TEXT = {
  title: 'Developer',
  intro: 'Call the tools from your own code with an API key: same prices, same balance, same results.',
  docs: 'Read the API docs',
  nameLabel: 'Key name',
  namePlaceholder: 'e.g. Shop backend',
  create: 'Create key',
  creating: 'Creating…',
  createFailed: 'The key could not be created. Check your connection and try again.',
  newKeyLabel: 'Your new key',
  shownOnce: 'Copy it now and keep it somewhere safe: it will not be shown again.',
  copy: 'Copy',
  done: 'Done',
  keysTitle: 'Your keys',
  empty: 'No API keys yet.',
  loadFailed: 'We could not load your API keys. Reload the page to try again.',
  created: (date: string) => `Created ${date}`,
  lastUsed: (date: string) => `Last used ${date}`,
  neverUsed: 'Never used',
  revoke: 'Revoke',
  revokeWarning: (name: string) => `Revoke “${name}”? Programs using it are refused at once. This cannot be undone.`,
  confirmRevoke: 'Revoke key',
  keep: 'Keep it',
  revoked: (name: string) => `“${name}” is revoked.`,
  revokeFailed: 'The key could not be revoked. Check your connection and try again.',
} as const;

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** The server's sentence when it gave one (4xx), else ours. */
const reasonOf = (result: { status: number; data: unknown } | null, fallback: string) =>
  (result && result.status < 500 ? errorMessage(result.data) : null) ?? fallback;

/**
 * User Settings' Developer section (issue 39): API keys (made here, shown once in full, listed by
 * their first characters, revoked after a confirmation in place), the webhook signing secret, and
 * the way to the API docs.
 */
export function DeveloperCard() {
  const titleId = useId();
  const [keys, setKeys] = useState<ApiKeySummary[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const load = useCallback(async () => {
    const result = await listApiKeys().catch(() => null);
    if (result?.ok && result.data) {
      setKeys(result.data.keys);
      setLoadFailed(false);
    } else setLoadFailed(true);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="pp-card pp-account pp-developer" aria-labelledby={titleId}>
      <h2 id={titleId} className="pp-card__title">
        {DEVELOPER_TEXT.title}
      </h2>
      <p className="pp-account__note">{DEVELOPER_TEXT.intro}</p>
      <p>
        <a className="pp-developer__docs" href={DEVELOPERS_PAGE}>
          <BookOpen size={18} aria-hidden="true" />
          {DEVELOPER_TEXT.docs}
        </a>
      </p>
      <CreateKeyForm
        onCreated={(key) => {
          setCreated(key);
          void load();
        }}
      />
      {created ? <NewKeyPanel created={created} onDone={() => setCreated(null)} /> : null}
      <KeyList keys={keys} loadFailed={loadFailed} onRevoked={() => void load()} />
      <WebhookSecretPanel />
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const inputId = useId();
  const messageId = useId();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessageValue | null>(null);

  async function onSubmit() {
    // The server judges the name too; saying it here saves a round trip.
    const problem = apiKeyNameProblem(name);
    if (problem) {
      setMessage({ tone: 'error', text: problem });
      return;
    }
    setBusy(true);
    setMessage(null);
    const result = await createApiKey(name.trim()).catch(() => null);
    setBusy(false);
    if (result?.ok && result.data) {
      setName('');
      onCreated(result.data);
      return;
    }
    setMessage({ tone: 'error', text: reasonOf(result, DEVELOPER_TEXT.createFailed) });
  }

  return (
    <form
      className="pp-developer__create"
      aria-label="Create an API key"
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <label className="pp-field__label" htmlFor={inputId}>
        {DEVELOPER_TEXT.nameLabel}
      </label>
      <div className="pp-developer__row">
        <input
          id={inputId}
          className="pp-input"
          type="text"
          autoComplete="off"
          maxLength={API_KEY_NAME_MAX_LENGTH + 20}
          placeholder={DEVELOPER_TEXT.namePlaceholder}
          aria-describedby={messageId}
          aria-invalid={message?.tone === 'error' ? true : undefined}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="pp-button pp-button--primary" disabled={busy}>
          <Plus size={18} aria-hidden="true" />
          {busy ? DEVELOPER_TEXT.creating : DEVELOPER_TEXT.create}
        </button>
      </div>
      <FormMessage id={messageId} message={message} />
    </form>
  );
}

function NewKeyPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const fieldId = useId();
  const [message, setMessage] = useState<FormMessageValue | null>(null);
  return (
    <div className="pp-developer__new" data-testid="new-api-key">
      <label className="pp-field__label" htmlFor={fieldId}>
        {DEVELOPER_TEXT.newKeyLabel} ({created.name})
      </label>
      <div className="pp-developer__row">
        <input
          id={fieldId}
          className="pp-input pp-developer__secret"
          type="text"
          readOnly
          spellCheck={false}
          value={created.key}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button
          type="button"
          className="pp-button pp-button--secondary"
          onClick={async () => setMessage(await copyText(created.key))}
        >
          <Copy size={18} aria-hidden="true" />
          {DEVELOPER_TEXT.copy}
        </button>
      </div>
      <p className="pp-account__note">{DEVELOPER_TEXT.shownOnce}</p>
      <FormMessage message={message} />
      <div>
        <button type="button" className="pp-button pp-button--secondary" onClick={onDone}>
          {DEVELOPER_TEXT.done}
        </button>
      </div>
    </div>
  );
}

function KeyList({
  keys,
  loadFailed,
  onRevoked,
}: {
  keys: ApiKeySummary[] | null;
  loadFailed: boolean;
  onRevoked: () => void;
}) {
  const titleId = useId();
  const [message, setMessage] = useState<FormMessageValue | null>(null);
  return (
    <div className="pp-developer__keys">
      <h3 id={titleId} className="pp-developer__subtitle">
        <KeyRound size={18} aria-hidden="true" />
        {DEVELOPER_TEXT.keysTitle}
      </h3>
      {loadFailed ? (
        <FormMessage message={{ tone: 'error', text: DEVELOPER_TEXT.loadFailed }} />
      ) : keys === null ? null : keys.length === 0 ? (
        <p className="pp-account__note">{DEVELOPER_TEXT.empty}</p>
      ) : (
        <ul className="pp-developer__list" aria-labelledby={titleId}>
          {keys.map((key) => (
            <KeyItem
              key={key.id}
              apiKey={key}
              onRevoked={() => {
                setMessage({ tone: 'success', text: DEVELOPER_TEXT.revoked(key.name) });
                onRevoked();
              }}
            />
          ))}
        </ul>
      )}
      <FormMessage message={message} />
    </div>
  );
}

function KeyItem({ apiKey, onRevoked }: { apiKey: ApiKeySummary; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessageValue | null>(null);

  async function onRevoke() {
    setBusy(true);
    setMessage(null);
    const result = await revokeApiKey(apiKey.id).catch(() => null);
    setBusy(false);
    // 404: revoked already (another tab): gone all the same.
    if (result?.ok || result?.status === 404) {
      onRevoked();
      return;
    }
    setMessage({ tone: 'error', text: reasonOf(result, DEVELOPER_TEXT.revokeFailed) });
  }

  return (
    <li className="pp-developer__key" aria-label={apiKey.name}>
      <div className="pp-developer__key-main">
        <span className="pp-developer__key-name">{apiKey.name}</span>
        <code className="pp-developer__prefix">{apiKey.prefix}…</code>
      </div>
      <p className="pp-developer__key-dates">
        <span>{DEVELOPER_TEXT.created(formatDate(apiKey.createdAt))}</span>
        <span>
          {apiKey.lastUsedAt ? DEVELOPER_TEXT.lastUsed(formatDate(apiKey.lastUsedAt)) : DEVELOPER_TEXT.neverUsed}
        </span>
      </p>
      {confirming ? (
        <ConfirmInPlace
          label={`Confirm revoking ${apiKey.name}`}
          warning={DEVELOPER_TEXT.revokeWarning(apiKey.name)}
          confirmText={DEVELOPER_TEXT.confirmRevoke}
          keepText={DEVELOPER_TEXT.keep}
          busy={busy}
          onConfirm={() => void onRevoke()}
          onKeep={() => setConfirming(false)}
        >
          <FormMessage message={message} />
        </ConfirmInPlace>
      ) : (
        <div>
          <button type="button" className="pp-button pp-button--secondary" onClick={() => setConfirming(true)}>
            <Trash2 size={18} aria-hidden="true" />
            {DEVELOPER_TEXT.revoke}
          </button>
        </div>
      )}
    </li>
  );
}
