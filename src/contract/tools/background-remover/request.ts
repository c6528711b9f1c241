// Background Remover's request body (product-spec.md section 7) with its finishing (issue 41): the
// background, a crop to the subject, a square size, a contact shadow (contract/output-files.ts); its
// mode (issue 58): the cut-out, the photo with its background blurred, or the mask itself; and
// whether the soft edge's colours are cleaned of the old background's (decision 080).
import { z } from 'zod';
import { BLUR_STRENGTH, CUT_OUT_MARGIN, CUT_OUT_MODES, CUT_OUT_SIZE, HEX_COLOUR } from '../../output-files';
import { image, imageFile, userId, webhook } from '../../request-fields';

const cutOutFinish = {
  background: z
    .string({ error: 'must be "transparent" or a colour as #rrggbb' })
    .refine(
      (value) => value === 'transparent' || HEX_COLOUR.test(value),
      'must be "transparent" or a colour as #rrggbb',
    )
    .optional(),
  crop: z
    .number({ error: 'must be a number' })
    .min(CUT_OUT_MARGIN.min, `must be a margin from ${CUT_OUT_MARGIN.min} to ${CUT_OUT_MARGIN.max} percent`)
    .max(CUT_OUT_MARGIN.max, `must be a margin from ${CUT_OUT_MARGIN.min} to ${CUT_OUT_MARGIN.max} percent`)
    .optional(),
  size: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(CUT_OUT_SIZE.min, `must be from ${CUT_OUT_SIZE.min} to ${CUT_OUT_SIZE.max} pixels`)
    .max(CUT_OUT_SIZE.max, `must be from ${CUT_OUT_SIZE.min} to ${CUT_OUT_SIZE.max} pixels`)
    .optional(),
  shadow: z.boolean({ error: 'must be true or false' }).optional(),
};

const modeFields = {
  mode: z
    .enum(CUT_OUT_MODES, { error: `must be one of ${CUT_OUT_MODES.join(', ')}` })
    .optional()
    .describe(
      '"cutout" (the default): the subject on a transparent background, finished as asked; "blur": the photo with its background blurred behind the sharp subject; "mask": the matte, white subject on black, a one-channel PNG.',
    ),
  blurStrength: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(BLUR_STRENGTH.min, `must be from ${BLUR_STRENGTH.min} to ${BLUR_STRENGTH.max}`)
    .max(BLUR_STRENGTH.max, `must be from ${BLUR_STRENGTH.min} to ${BLUR_STRENGTH.max}`)
    .optional()
    .describe(
      `Mode blur only: how strongly the background is blurred, ${BLUR_STRENGTH.min}-${BLUR_STRENGTH.max} (default ${BLUR_STRENGTH.default}).`,
    ),
  cleanEdges: z
    .boolean({ error: 'must be true or false' })
    .optional()
    .describe(
      "Modes cutout and blur: the old background's colour taken out of the subject's soft edge (hair, fur). On unless false: false keeps the photo's own pixels there.",
    ),
};

export const request = z.object({ userId, image, ...imageFile, ...cutOutFinish, ...modeFields, webhook });

/** The fields that only a cut-out takes (its finishing). */
const CUT_OUT_ONLY = ['background', 'crop', 'size', 'shadow'] as const;

/**
 * The first field that contradicts the request's mode, with its sentence (null: none). One rule for
 * the server's check (tools/background-remover/) and the page, which never sends such a pair.
 */
export function modeConflict(body: z.output<typeof request>): { field: string; reason: string } | null {
  const mode = body.mode ?? 'cutout';
  if (mode !== 'cutout') {
    const field = CUT_OUT_ONLY.find((name) => body[name] !== undefined);
    if (field) return { field, reason: `applies to mode "cutout" only, not to mode "${mode}"` };
  }
  if (mode !== 'blur' && body.blurStrength !== undefined) {
    return { field: 'blurStrength', reason: `applies to mode "blur" only, not to mode "${mode}"` };
  }
  if (mode === 'mask' && body.cleanEdges !== undefined) {
    return { field: 'cleanEdges', reason: 'applies to modes "cutout" and "blur": a mask has no colours' };
  }
  if (mode === 'mask' && body.outputFormat !== undefined && body.outputFormat !== 'png') {
    return { field: 'outputFormat', reason: 'mode "mask" is a one-channel PNG: leave outputFormat out or ask for png' };
  }
  return null;
}

// Its entry in the type of every tool's request (ToolRequestSchemas, what the pages' bodies are typed by).
declare module '../../tool-requests' {
  interface ToolRequestSchemas {
    'background-remover': typeof request;
  }
}
