import type { InputHTMLAttributes } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'onChange'> & {
  /** Passed in, not made here: forms derive their field ids from one useId and point at them. */
  id: string;
  label: string;
  onValueChange: (value: string) => void;
};

/** A labelled text input (email, password...) with the label above it; other input props pass through. */
export function TextField({ id, label, onValueChange, ...input }: Props) {
  return (
    <div className="pp-field">
      <label className="pp-field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="pp-input" {...input} onChange={(event) => onValueChange(event.target.value)} />
    </div>
  );
}
