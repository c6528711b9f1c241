// A second step in place of a button whose action cannot be undone (revoke a key, rotate the
// webhook secret): the warning, the action in red, and a way to keep things as they are.
import type { ReactNode } from 'react';

export function ConfirmInPlace(props: {
  /** Names the group for a screen reader ("Confirm revoking My laptop"). */
  label: string;
  warning: string;
  confirmText: string;
  keepText: string;
  busy: boolean;
  onConfirm: () => void;
  onKeep: () => void;
  /** Shown under the buttons (the action's outcome or refusal). */
  children?: ReactNode;
}) {
  return (
    <fieldset className="pp-developer__confirm" aria-label={props.label}>
      <p className="pp-account__note">{props.warning}</p>
      <div className="pp-developer__row">
        <button type="button" className="pp-button pp-button--danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmText}
        </button>
        <button type="button" className="pp-button pp-button--secondary" onClick={props.onKeep}>
          {props.keepText}
        </button>
      </div>
      {props.children}
    </fieldset>
  );
}
