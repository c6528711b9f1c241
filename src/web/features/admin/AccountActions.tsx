import { useState } from 'react';
import type { AdminAccountSummary, AdminApiKey, AdminJob } from '../../../contract/admin';
import { ADMIN_MAX_TOKEN_CHANGE } from '../../../contract/admin-rules';
import { LabelledField } from '../../components/LabelledField';
import { ActionForm, type ActionSpec } from './ActionForm';
import { ADMIN_ACTIONS_API } from './admin-api';
import { formatCount, formatTime, toolTitle } from './format';

export type Flag = 'isDispute' | 'isFraudulent';

export const FLAG_NAMES: Record<Flag, string> = { isDispute: 'dispute', isFraudulent: 'fraud' };

/** The action whose form is open on the account page (one at a time). */
export type OpenAction =
  | { kind: 'tokens' }
  | { kind: 'flag'; flag: Flag; set: boolean }
  | { kind: 'verification-mail' }
  | { kind: 'sign-out' }
  | { kind: 'refund'; job: AdminJob }
  | { kind: 'revoke-key'; key: AdminApiKey };

type Props = {
  account: AdminAccountSummary;
  action: OpenAction;
  /** The change was made: `text` says which. */
  onDone(text: string): void;
  onCancel(): void;
};

/** The whole number of tokens typed, or null. */
const tokensOf = (text: string) => (/^\d{1,7}$/.test(text.trim()) ? Number(text.trim()) : null);

function TokensForm({ account, onDone, onCancel }: Omit<Props, 'action'>) {
  const [direction, setDirection] = useState<'grant' | 'deduct'>('grant');
  const [amount, setAmount] = useState('');
  const tokens = tokensOf(amount);
  const valid = tokens !== null && tokens > 0 && tokens <= ADMIN_MAX_TOKEN_CHANGE;
  const delta = direction === 'grant' ? (tokens ?? 0) : -(tokens ?? 0);
  return (
    <ActionForm
      title="Grant or deduct tokens"
      submitLabel={direction === 'grant' ? 'Grant tokens' : 'Deduct tokens'}
      ready={valid}
      run={(reason) => ADMIN_ACTIONS_API.tokens(account.id, delta, reason)}
      done={`${direction === 'grant' ? 'Granted' : 'Deducted'} ${formatCount(tokens ?? 0)} tokens.`}
      onDone={onDone}
      onCancel={onCancel}
    >
      <fieldset className="pp-admin__choice">
        <legend className="pp-field__label">Change</legend>
        {(['grant', 'deduct'] as const).map((value) => (
          <label key={value}>
            <input
              type="radio"
              name="direction"
              value={value}
              checked={direction === value}
              onChange={() => setDirection(value)}
            />
            {value === 'grant' ? 'Grant' : 'Deduct'}
          </label>
        ))}
      </fieldset>
      <LabelledField label="Tokens">
        {(id) => (
          <input
            id={id}
            className="pp-input pp-admin__amount"
            inputMode="numeric"
            value={amount}
            aria-invalid={amount !== '' && !valid}
            onChange={(event) => setAmount(event.target.value)}
          />
        )}
      </LabelledField>
      {direction === 'deduct' && account.tokens !== null ? (
        <p className="pp-admin__hint">The balance is {formatCount(account.tokens)}: it never goes below zero.</p>
      ) : null}
    </ActionForm>
  );
}

/** What the form of an action that needs nothing but a reason says and does. */
function reasonOnlySpec(account: AdminAccountSummary, action: Exclude<OpenAction, { kind: 'tokens' }>): ActionSpec {
  switch (action.kind) {
    case 'flag': {
      const name = FLAG_NAMES[action.flag];
      const verb = action.set ? 'Set' : 'Clear';
      return {
        title: `${verb} the ${name} flag`,
        submitLabel: `${verb} ${name} flag`,
        danger: action.set,
        run: (reason) => ADMIN_ACTIONS_API.flags(account.id, { [action.flag]: action.set }, reason),
        done: `The ${name} flag is ${action.set ? 'set' : 'cleared'}.`,
      };
    }
    case 'verification-mail':
      return {
        title: `Send the verification mail to ${account.email} again`,
        submitLabel: 'Send verification mail',
        run: (reason) => ADMIN_ACTIONS_API.verificationMail(account.id, reason),
        done: `A verification mail went to ${account.email}.`,
      };
    case 'sign-out':
      return {
        title: 'Sign this account out everywhere',
        submitLabel: 'Sign out everywhere',
        danger: true,
        run: (reason) => ADMIN_ACTIONS_API.signOut(account.id, reason),
        done: 'Every session of this account has ended.',
      };
    case 'refund': {
      const { job } = action;
      const owed = job.charged - job.refunded;
      return {
        title: `Refund ${formatCount(owed)} tokens for ${toolTitle(job.tool)} of ${formatTime(job.createdAt)}`,
        submitLabel: 'Refund job',
        run: (reason) => ADMIN_ACTIONS_API.refund(job.id, reason),
        done: `Refunded the ${toolTitle(job.tool)} job: ${formatCount(owed)} tokens.`,
      };
    }
    case 'revoke-key':
      return {
        title: `Revoke the API key “${action.key.name}” (${action.key.prefix}…)`,
        submitLabel: 'Revoke key',
        danger: true,
        run: (reason) => ADMIN_ACTIONS_API.revokeKey(action.key.id, reason),
        done: `The API key “${action.key.name}” is revoked.`,
      };
  }
}

/** The open action's form. */
export function AccountActionForm({ account, action, onDone, onCancel }: Props) {
  if (action.kind === 'tokens') return <TokensForm account={account} onDone={onDone} onCancel={onCancel} />;
  return <ActionForm {...reasonOnlySpec(account, action)} onDone={onDone} onCancel={onCancel} />;
}
