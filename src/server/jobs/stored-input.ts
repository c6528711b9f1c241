// What a job keeps of its input: the tool's own typed input (tools/<tool-id>/), each image replaced
// by a reference to its input file, so that the worker hands the provider exactly what the call
// asked for, every field included, whatever process runs it.
import type { ToolId } from '../../contract/tools';
import type { ImageInput } from '../images/image-types';
import type { ToolInput } from '../tools/registry';

/** An image of the input: which input file (by position) and what it is, never its bytes. */
type ImageRef = { inputFile: number; mime: ImageInput['mime']; width: number; height: number; bytes: number };

export type StoredInput = { format: 2; input: Record<string, unknown> };

const isImage = (value: unknown): value is ImageInput =>
  typeof value === 'object' && value !== null && Buffer.isBuffer((value as ImageInput).bytes);

const isImageRef = (value: unknown): value is ImageRef =>
  typeof value === 'object' && value !== null && typeof (value as ImageRef).inputFile === 'number';

const isStoredInput = (value: unknown): value is StoredInput =>
  typeof value === 'object' && value !== null && (value as StoredInput).format === 2;

/** The input to keep on the job row, and its images in input-file order. */
export function toStoredInput(input: ToolInput): { stored: StoredInput; images: ImageInput[] } {
  const images: ImageInput[] = [];
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!isImage(value)) {
      fields[key] = value;
      continue;
    }
    images.push(value);
    const { mime, width, height } = value;
    fields[key] = { inputFile: images.length - 1, mime, width, height, bytes: value.bytes.length } satisfies ImageRef;
  }
  return { stored: { format: 2, input: fields }, images };
}

/** The provider input again, from the row's stored input and its input files (in order). */
export function fromStoredInput(tool: ToolId, stored: unknown, images: ImageInput[]): ToolInput {
  if (!isStoredInput(stored)) return fromSummary(tool, stored, images);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored.input)) {
    if (!isImageRef(value)) {
      fields[key] = value;
      continue;
    }
    const image = images[value.inputFile];
    if (!image) throw new Error(`input file ${value.inputFile} of a ${tool} job is missing`);
    fields[key] = image;
  }
  return { ...fields, tool } as ToolInput;
}

/**
 * Jobs queued by a release before this format kept a summary (some fields, the image's size): the
 * worker of a rolling deploy still runs them as it did then (expand, then contract: docs/deploy.md).
 */
function fromSummary(tool: ToolId, summary: unknown, images: ImageInput[]): ToolInput {
  const { imageFiles: _count, image: _image, ...fields } = (summary ?? {}) as Record<string, unknown>;
  return { ...fields, tool, ...(images[0] ? { image: images[0] } : {}) } as ToolInput;
}

/** Whether the job has input files to read back (a job of the summary format may; a prompt-only job has none). */
export function hasInputFiles(stored: unknown): boolean {
  return !isStoredInput(stored) || Object.values(stored.input).some(isImageRef);
}

/** Images the job was charged for: what a per-image tool asked for (numOutputs), else one. */
export function imagesAsked(stored: unknown): number {
  const fields = storedFields(stored);
  return typeof fields.numOutputs === 'number' ? fields.numOutputs : 1;
}

/** The call's own fields as the job keeps them (images as references). */
export function storedFields(stored: unknown): Record<string, unknown> {
  return (isStoredInput(stored) ? stored.input : (stored ?? {})) as Record<string, unknown>;
}
