import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ADMIN_MESSAGES, ADMIN_REASON_MAX_LENGTH } from '../../../contract/admin-rules';
import { FormMessage } from '../../components/FormMessage';
import { LabelledField } from '../../components/LabelledField';
import type { AdminActionResult } from './admin-api';

/** What one action's form says and does: its heading, its button, the call, the sentence once done. */
export type ActionSpec = {
  /** The form's heading: what is about to be done, to what. */
  title: string;
  submitLabel: string;
  danger?: boolean;
  run(reason: string): Promise<AdminActionResult>;
  /** Said after the server made the change. */
  done: string;
};

type Props = ActionSpec & {
  /** The action's own fields, above the reason. */
  children?: ReactNode;
  /** False while the action's own fields are not filled in. */
  ready?: boolean;
  onDone(text: string): void;
  onCancel(): void;
};

/**
 * One action on an account: its fields and the reason the audit log keeps, which is required (the
 * button stays disabled, and says why, until one is given). A refusal shows the server's sentence
 * and keeps the form as it was.
 */
export function ActionForm({
  title,
  submitLabel,
  children,
  ready = true,
  danger = false,
  run,
  done,
  onDone,
  onCancel,
}: Props) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hintId = useId();
  const titleId = useId();
  const form = useRef<HTMLFormElement>(null);
  const hasReason = reason.trim() !== '';

  // Opened from a button: the operator types next, so the first field takes the focus.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!hasReason || !ready || busy) return;
    setBusy(true);
    setError(null);
    const result = await run(reason.trim());
    setBusy(false);
    if (result.ok) onDone(done);
    else setError(result.error);
  };

  return (
    <form ref={form} className="pp-admin__action" aria-labelledby={titleId} onSubmit={(event) => void submit(event)}>
      <h3 id={titleId} className="pp-admin__action-title">
        {title}
      </h3>
      {children}
      <LabelledField label="Reason">
        {(id) => (
          <>
            <textarea
              id={id}
              className="pp-input pp-admin__reason"
              value={reason}
              rows={2}
              maxLength={ADMIN_REASON_MAX_LENGTH}
              required
              aria-describedby={hintId}
              onChange={(event) => setReason(event.target.value)}
            />
            <p id={hintId} className="pp-admin__hint">
              {hasReason ? 'Kept in the audit log with the change.' : ADMIN_MESSAGES.reasonRequired}
            </p>
          </>
        )}
      </LabelledField>
      <FormMessage message={error ? { tone: 'error', text: error } : null} />
      <div className="pp-admin__action-buttons">
        <button
          type="submit"
          className={`pp-button ${danger ? 'pp-button--danger' : 'pp-button--primary'}`}
          disabled={!hasReason || !ready || busy}
          aria-describedby={hintId}
        >
          {busy ? 'Working…' : submitLabel}
        </button>
        <button type="button" className="pp-button pp-button--secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
