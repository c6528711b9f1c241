// A step's main options on the recipes page: what each tool's own page lets the user choose that
// matters in a chain (Background Remover's background, square size and shadow; Image Upscaler's
// scale; the result's file format and quality). Anything else a saved step holds stays as it is.
import { OUTPUT_FORMAT_LABELS, OUTPUT_FORMATS } from '../../../contract/output-files';
import type { RecipeStep } from '../../../contract/recipes';
import { toolById } from '../../../contract/tools';
import { LabelledField } from '../../components/LabelledField';
import { NumberField } from '../../components/NumberField';

type Props = { step: RecipeStep; onChange(options: Record<string, unknown>): void };

/** The scales a step may choose from: an upscale that offers more than one (its definition's `image.scales`). */
const scaleChoices = (tool: RecipeStep['tool']) => {
  const scales = toolById(tool).image?.scales ?? [];
  return scales.length > 1 ? scales : [];
};

/** A cut-out's finishing (background, square size, shadow) applies to a tool whose result is a cut-out. */
export const makesCutOut = (tool: RecipeStep['tool']) => toolById(tool).resultFiles?.transparency === 'cut-out';

/** A new step's options: a choice the tool requires gets its page's default (an upscale's smallest scale). */
export const defaultOptions = (tool: RecipeStep['tool']): Record<string, unknown> => {
  const [scale] = scaleChoices(tool);
  return scale === undefined ? {} : { scale };
};

export function StepOptions({ step, onChange }: Props) {
  const { options } = step;
  const set = (field: string, value: unknown) => {
    const next = { ...options, [field]: value };
    if (value === undefined || value === '') delete next[field];
    onChange(next);
  };
  const numberOr = (text: string) => (text.trim() === '' ? undefined : Number(text));
  /** A number option's field; blank leaves it out (the tool's own default). */
  const numberOption = (label: string, field: string, input: { placeholder: string; min?: number; max?: number }) => (
    <NumberField
      label={label}
      {...input}
      value={typeof options[field] === 'number' ? options[field] : ''}
      onChange={(text) => set(field, numberOr(text))}
    />
  );
  const background = typeof options.background === 'string' ? options.background : 'transparent';
  const hasFile = toolById(step.tool).resultFiles !== undefined;
  const scales = scaleChoices(step.tool);
  const format = typeof options.outputFormat === 'string' ? options.outputFormat : '';
  return (
    <div className="pp-recipe-step__options">
      {makesCutOut(step.tool) ? (
        <>
          <LabelledField label="Background">
            {(id) => (
              <div className="pp-recipe-step__inline">
                <select
                  id={id}
                  className="pp-input"
                  value={background === 'transparent' ? 'transparent' : background === '#ffffff' ? 'white' : 'colour'}
                  onChange={(event) =>
                    set(
                      'background',
                      { transparent: undefined, white: '#ffffff', colour: '#6c5ce7' }[event.target.value as 'white'],
                    )
                  }
                >
                  <option value="transparent">Transparent</option>
                  <option value="white">White</option>
                  <option value="colour">Colour</option>
                </select>
                {background !== 'transparent' && background !== '#ffffff' ? (
                  <input
                    type="color"
                    aria-label="Background colour"
                    className="pp-recipe-step__colour"
                    value={background}
                    onChange={(event) => set('background', event.target.value)}
                  />
                ) : null}
              </div>
            )}
          </LabelledField>
          {numberOption('Square size (px)', 'size', { placeholder: 'As the photo' })}
          <label className="pp-recipe-step__check">
            <input
              type="checkbox"
              checked={options.shadow === true}
              onChange={(event) => set('shadow', event.target.checked || undefined)}
            />
            Shadow
          </label>
        </>
      ) : null}
      {scales.length > 0 ? (
        <LabelledField label="Scale">
          {(id) => (
            <select
              id={id}
              className="pp-input"
              value={typeof options.scale === 'number' ? options.scale : scales[0]}
              onChange={(event) => set('scale', Number(event.target.value))}
            >
              {scales.map((scale) => (
                <option key={scale} value={scale}>
                  {scale}x
                </option>
              ))}
            </select>
          )}
        </LabelledField>
      ) : null}
      {hasFile ? (
        <>
          <LabelledField label="File format">
            {(id) => (
              <select
                id={id}
                className="pp-input"
                value={format}
                onChange={(event) => set('outputFormat', event.target.value || undefined)}
              >
                <option value="">As the tool makes it</option>
                {OUTPUT_FORMATS.map((value) => (
                  <option key={value} value={value}>
                    {OUTPUT_FORMAT_LABELS[value]}
                  </option>
                ))}
              </select>
            )}
          </LabelledField>
          {format !== '' && format !== 'png'
            ? numberOption('Quality (1-100)', 'outputQuality', { placeholder: 'Default', min: 1, max: 100 })
            : null}
        </>
      ) : null}
    </div>
  );
}
