import { LabelledField } from './LabelledField';

type Props = {
  label: string;
  value: number | string;
  min?: number;
  max?: number;
  placeholder?: string;
  /** The text as typed (blank included): the form decides what a blank or a stray character means. */
  onChange: (text: string) => void;
};

/** A whole-number field in the forms' style, the label above. */
export function NumberField({ label, onChange, ...input }: Props) {
  return (
    <LabelledField label={label}>
      {(id) => (
        <input
          id={id}
          className="pp-input"
          type="number"
          inputMode="numeric"
          step={1}
          {...input}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </LabelledField>
  );
}
