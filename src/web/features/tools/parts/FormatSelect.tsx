import './file-options.css';
import { OUTPUT_FORMAT_LABELS, type OutputFormat } from '../../../../contract/output-files';

type Props = {
  /** The formats to offer, the one the result is stored in first. */
  formats: readonly OutputFormat[];
  value: OutputFormat;
  onChange: (format: OutputFormat) => void;
  /** Its accessible name ("Format", or "Format of image 2" among several). */
  label: string;
};

/** The compact format choice joined to a Download button: it sets what the button saves. */
export function FormatSelect({ formats, value, onChange, label }: Props) {
  return (
    <select
      className="pp-input pp-select pp-format-select"
      aria-label={label}
      value={value}
      onChange={(event) => {
        const chosen = formats.find((format) => format === event.target.value);
        if (chosen) onChange(chosen);
      }}
    >
      {formats.map((format) => (
        <option key={format} value={format}>
          {OUTPUT_FORMAT_LABELS[format]}
        </option>
      ))}
    </select>
  );
}
