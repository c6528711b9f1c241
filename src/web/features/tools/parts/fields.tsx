// The tool forms' inputs. None takes a `disabled` flag: the workspace's fieldset switches them all off
// at once (signed-in state, a running job).
import { Coins, FlaskConical } from 'lucide-react';
import { type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { formatCount, INPUT_MESSAGES, MAX_PROMPT_CHARS, promptProblem } from '../../../../contract/input-limits';
import { ASPECT_RATIOS, type AspectRatio, MAX_IMAGES_PER_REQUEST } from '../../../../contract/tools';
import { FormMessage } from '../../../components/FormMessage';
import { LabelledField } from '../../../components/LabelledField';
import { formatTokens } from '../../../lib/format-cost';
import { FREE_PREVIEW_PRICE } from './FreePreviewNotice';
import { useRunAgainSetting } from './run-again';

/** The image counts a call may ask for: 1 to the spec's maximum. */
const IMAGE_COUNTS = Array.from({ length: MAX_IMAGES_PER_REQUEST }, (_, index) => index + 1);

/** A field's current value and its element, for a page's request body and its form. */
export type Field<T> = { value: T; field: ReactElement };

/** A field whose value may not go out as it is: `check` says why (and points the user at it), or null. */
export type CheckedField<T> = Field<T> & { check: () => string | null };

/**
 * A prompt's value and its required field (product-spec.md section 5: prompts are required). It
 * starts as `initial` (a draft kept on the way to /tokens), else the prompt "Run again" carries.
 * A job still running when the page opened brings its prompt back (`resumed`).
 * A live counter states the limit beside the field ("1,840 / 2,000", counted as the server counts:
 * trimmed); over it, the field says so at once. `check` is the page's last look before a call: a
 * blank, too long or unstorable prompt is refused there, beside the field, which takes the focus.
 */
export function usePromptField(
  label: string,
  placeholder: string,
  initial = '',
  /** The prompt of a job still running when the page opened (it arrives after the first render). */
  resumed: string | null = null,
): CheckedField<string> {
  const again = useRunAgainSetting<string>(['prompt'], null, '');
  const [prompt, setPrompt] = useState(initial || again);
  // A prompt already typed stays.
  useEffect(() => {
    if (resumed) setPrompt((current) => current || resumed);
  }, [resumed]);
  /** The problem shown beside the field after a refused click (cleared by the next edit). */
  const [refused, setRefused] = useState<string | null>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const counterId = useId();
  const problemId = useId();
  const length = prompt.trim().length;
  const over = length > MAX_PROMPT_CHARS;
  const shown = over ? INPUT_MESSAGES.promptTooLong(length) : refused;
  const field = (
    <LabelledField label={label}>
      {(id) => (
        <>
          <textarea
            ref={textareaRef}
            id={id}
            className="pp-input pp-textarea"
            rows={4}
            // Required (section 5), said by the page's own sentence beside the field rather than the
            // browser's bubble, which a prompt of spaces would pass anyway.
            aria-required="true"
            value={prompt}
            placeholder={placeholder}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? `${problemId} ${counterId}` : counterId}
            onChange={(event) => {
              setPrompt(event.target.value);
              setRefused(null);
            }}
          />
          <p className="pp-field__counter pp-tabular" id={counterId} data-over={over} data-testid="prompt-counter">
            <span aria-hidden="true">
              {formatCount(length)} / {formatCount(MAX_PROMPT_CHARS)}
            </span>
            <span className="pp-visually-hidden">
              {formatCount(length)} of {formatCount(MAX_PROMPT_CHARS)} characters
            </span>
          </p>
          {/* Over the limit while typing, the sentence counts on with each key: it is read with the
              field, and one steady sentence is announced instead of every count. */}
          <FormMessage
            id={problemId}
            message={shown ? { tone: 'error', text: shown } : null}
            testId="prompt-problem"
            live={!over}
          />
          <p className="pp-visually-hidden" aria-live="polite" data-testid="prompt-over-announcement">
            {over ? INPUT_MESSAGES.promptOverLimit : ''}
          </p>
        </>
      )}
    </LabelledField>
  );
  const check = () => {
    const problem = promptProblem(prompt);
    setRefused(problem);
    if (problem) textareaRef.current?.focus();
    return problem;
  };
  return { value: prompt, field, check };
}

type Option<T extends string | number> = { value: T; label: string };

type SelectProps<T extends string | number> = {
  label: string;
  value: T;
  options: readonly Option<T>[];
  onChange: (value: T) => void;
  /** A sentence under the menu (what the chosen option does), read with it. */
  hint?: string;
};

export function SelectField<T extends string | number>({ label, value, options, onChange, hint }: SelectProps<T>) {
  const hintId = useId();
  return (
    <LabelledField label={label}>
      {(id) => (
        <>
          <select
            id={id}
            className="pp-input pp-select"
            value={String(value)}
            aria-describedby={hint ? hintId : undefined}
            onChange={(event) => {
              const chosen = options.find((option) => String(option.value) === event.target.value);
              if (chosen) onChange(chosen.value);
            }}
          >
            {options.map((option) => (
              <option key={option.value} value={String(option.value)}>
                {option.label}
              </option>
            ))}
          </select>
          {hint ? (
            <p id={hintId} className="pp-field__hint">
              {hint}
            </p>
          ) : null}
        </>
      )}
    </LabelledField>
  );
}

/** 1:1, 9:16, 16:9, also labelled Square, Mobile, Widescreen (product-spec.md section 2). */
const ASPECT_LABELS: Record<AspectRatio, string> = { '1:1': 'Square', '9:16': 'Mobile', '16:9': 'Widescreen' };
const ASPECT_OPTIONS = ASPECT_RATIOS.map((ratio) => ({ value: ratio, label: `${ratio} · ${ASPECT_LABELS[ratio]}` }));

/** The aspect ratio (default 1:1) and its select: a draft's, else "Run again"'s, else 1:1. */
export function useAspectRatioField(initial?: AspectRatio): Field<AspectRatio> {
  const again = useRunAgainSetting(['aspectRatio', 'aspect_ratio'], ASPECT_RATIOS, '1:1');
  const [ratio, setRatio] = useState<AspectRatio>(initial ?? again);
  return {
    value: ratio,
    field: <SelectField label="Aspect ratio" value={ratio} options={ASPECT_OPTIONS} onChange={setRatio} />,
  };
}

type ChoiceProps<T extends string | number> = {
  legend: string;
  name: string;
  value: T;
  options: readonly (Option<T> & { disabled?: boolean })[];
  onChange: (value: T) => void;
  hint?: string;
};

/** A segmented choice: native radio buttons (arrow keys move between them) drawn as one bar. */
export function ChoiceGroup<T extends string | number>({
  legend,
  name,
  value,
  options,
  onChange,
  hint,
}: ChoiceProps<T>) {
  const hintId = useId();
  return (
    <fieldset className="pp-choice" aria-describedby={hint ? hintId : undefined}>
      <legend className="pp-field__label">{legend}</legend>
      <div className="pp-choice__options">
        {options.map((option) => (
          <label key={option.value} className="pp-choice__option">
            <input
              type="radio"
              name={name}
              value={String(option.value)}
              checked={option.value === value}
              disabled={option.disabled}
              onChange={() => onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      {hint ? (
        <p id={hintId} className="pp-field__hint">
          {hint}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * Number of images, 1 to 4. With `maxAffordable` (Text to Pic: the balance), counts above it are off
 * (product-spec.md section 5).
 */
export function useImageCountField(maxAffordable?: number | null): Field<number> {
  const [chosen, setCount] = useState(useRunAgainSetting(['numOutputs', 'num_outputs'], IMAGE_COUNTS, 1));
  // A count the balance no longer covers (after spending) falls to the largest it does, so the
  // selection and the button's price never show more than the user can pay for.
  const count = maxAffordable == null ? chosen : Math.max(1, Math.min(chosen, maxAffordable));
  const options = Array.from({ length: MAX_IMAGES_PER_REQUEST }, (_, index) => ({
    value: index + 1,
    label: String(index + 1),
    disabled: maxAffordable != null && index + 1 > maxAffordable,
  }));
  return {
    value: count,
    field: (
      <ChoiceGroup legend="Number of images" name="image-count" value={count} options={options} onChange={setCount} />
    ),
  };
}

type ActionProps = {
  label: string;
  /** Tokens the click costs, shown on the button before the click. */
  cost: number;
  /** A free preview: the button says so instead of a price. */
  freePreview?: boolean;
  busy: boolean;
  busyLabel: string;
  disabled: boolean;
  message: string | null;
  /** A second, quieter line under the message: the server's reason for a failure. */
  detail?: string | null;
  /** A note elsewhere in the form that bears on the button (an account the server will refuse). */
  describedBy?: string;
};

/** The page's submit button with its price, and the line under it where checks and failures speak. */
export function ActionButton({
  label,
  cost,
  freePreview = false,
  busy,
  busyLabel,
  disabled,
  message,
  detail,
  describedBy,
}: ActionProps) {
  const messageId = useId();
  const detailId = useId();
  return (
    <div className="pp-action">
      <button
        data-testid="tool-action"
        className="pp-button pp-button--primary pp-button--lg pp-action__button"
        aria-describedby={[describedBy, messageId, message && detail ? detailId : null].filter(Boolean).join(' ')}
        type="submit"
        disabled={disabled || busy}
      >
        {busy ? (
          busyLabel
        ) : (
          <>
            <span>{label}</span>
            <CostChip freePreview={freePreview} cost={cost} />
          </>
        )}
      </button>
      <FormMessage id={messageId} message={message ? { tone: 'error', text: message } : null} testId="tool-message" />
      {message && detail ? (
        <p id={detailId} className="pp-action__detail" data-testid="tool-message-detail">
          {detail}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The price on an action button: the tokens it takes, or a free preview's words. `hidden`: the
 * button's text says the cost already (a batch's "Run 12 images" under its cost line).
 */
export function CostChip({ freePreview, cost, hidden }: { freePreview: boolean; cost: number; hidden?: boolean }) {
  return (
    <span className="pp-action__cost pp-tabular" aria-hidden={hidden ? 'true' : undefined}>
      {freePreview ? (
        <>
          <FlaskConical size={16} aria-hidden="true" />
          {FREE_PREVIEW_PRICE}
        </>
      ) : (
        <>
          <Coins size={16} aria-hidden="true" />
          {formatTokens(cost)}
        </>
      )}
    </span>
  );
}
