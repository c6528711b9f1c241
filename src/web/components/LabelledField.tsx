import { type ReactNode, useId } from 'react';

/** A label above one control: `children` gets the id the label points at, for its control to take. */
export function LabelledField({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="pp-field">
      <label className="pp-field__label" htmlFor={id}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}
