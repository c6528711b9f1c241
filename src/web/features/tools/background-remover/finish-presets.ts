// Background Remover's finishing presets (contract/output-files.ts): the one a job was run with, read
// back from its settings for "Run again" and from the draft kept on the way to /tokens.
import { CUT_OUT_PRESETS, type CutOutFinish } from '../../../../contract/output-files';

export type CutOutPreset = (typeof CUT_OUT_PRESETS)[number];

/** 'Transparent, as it is': no finishing field goes out. */
export const PLAIN_PRESET = CUT_OUT_PRESETS[0] as CutOutPreset;

/** The fields a preset sets (a mode's fields are the page's own choice). */
type PresetField = keyof Pick<CutOutFinish, 'background' | 'crop' | 'size' | 'shadow'>;

/** A finish as comparable values: what finishes nothing (a transparent background, no shadow) is left out. */
function comparable(settings: Record<string, unknown>): Record<PresetField, unknown> {
  const { background, crop, size, shadow } = settings;
  return {
    background:
      typeof background === 'string' && background.toLowerCase() !== 'transparent'
        ? background.toLowerCase()
        : undefined,
    crop,
    size,
    shadow: shadow === true ? true : undefined,
  };
}

/**
 * The preset whose finish these settings are; settings no preset makes (an API call with its own
 * margin or size) show as the plain one, which the user can change.
 */
export function presetOf(settings: Record<string, unknown> | null | undefined): CutOutPreset {
  const asked = comparable(settings ?? {});
  const same = (preset: CutOutPreset) => {
    const finish = comparable(preset.finish);
    return (Object.keys(finish) as PresetField[]).every((key) => finish[key] === asked[key]);
  };
  return CUT_OUT_PRESETS.find(same) ?? PLAIN_PRESET;
}

export const presetById = (id: string): CutOutPreset =>
  CUT_OUT_PRESETS.find((preset) => preset.id === id) ?? PLAIN_PRESET;
