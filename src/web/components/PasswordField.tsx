import { Eye, EyeOff } from 'lucide-react';
import { type InputHTMLAttributes, useState } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'onChange' | 'type'> & {
  /** Passed in, not made here: forms derive their field ids from one useId and point at them. */
  id: string;
  label: string;
  /** Said under the field before any attempt (the password rule), tied to it for screen readers. */
  hint?: string;
  /** The toggle is off while the form works (its buttons all are). */
  toggleDisabled?: boolean;
  onValueChange: (value: string) => void;
};

/** A labelled password input with a show/hide toggle and an optional rule under it. */
export function PasswordField({ id, label, hint, toggleDisabled, onValueChange, ...input }: Props) {
  const [shown, setShown] = useState(false);
  const hintId = `${id}-hint`;
  return (
    <div className="pp-field">
      <label className="pp-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="pp-password">
        <input
          id={id}
          className="pp-input pp-password__input"
          type={shown ? 'text' : 'password'}
          aria-describedby={hint ? hintId : undefined}
          {...input}
          onChange={(event) => onValueChange(event.target.value)}
        />
        <button
          type="button"
          className="pp-icon-button pp-password__toggle"
          aria-label="Show password"
          aria-pressed={shown}
          aria-controls={id}
          disabled={input.disabled || toggleDisabled}
          onClick={() => setShown((current) => !current)}
        >
          {shown ? <EyeOff size={20} aria-hidden="true" /> : <Eye size={20} aria-hidden="true" />}
        </button>
      </div>
      {hint ? (
        <p id={hintId} className="pp-password__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
