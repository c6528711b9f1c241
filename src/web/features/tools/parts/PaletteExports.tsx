import type { Color } from '../../../../contract/tool-responses';
import { saveBlob } from '../downloads';
import { type PaletteFormat, paletteFile } from './palette-export';

const FORMATS: { format: PaletteFormat; label: string }[] = [
  { format: 'css', label: 'CSS variables' },
  { format: 'json', label: 'JSON' },
  { format: 'ase', label: 'Adobe ASE' },
];

/** The palette saved as a file in one click per format. */
export function PaletteExports({ colors }: { colors: Color[] }) {
  return (
    <fieldset className="pp-analysis__actions">
      <legend className="pp-analysis__actions-label">Export palette</legend>
      {FORMATS.map(({ format, label }) => (
        <button
          key={format}
          type="button"
          className="pp-button pp-button--secondary pp-analysis__action"
          onClick={() => {
            const { blob, fileName } = paletteFile(colors, format);
            saveBlob(blob, fileName);
          }}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
}
