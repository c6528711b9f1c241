// What a job asks of its model step besides the provider's run (decision 084, the Image Upscaler to a
// size): `withoutModel`, the photo has the pixels already, so no model runs and the upload itself goes
// to the finishing (which makes the size asked and writes the DPI); `modelInputSize`, the photo is past
// the model's input limit and is made this size first (a ResultSize: resolved against the upright
// upload, as the finishing's `resultSize` is). Fields of the job's stored input, set by a tool's
// `prepare` (the upscaler's module) and read here for every tool alike.
import type { ResultSize } from '../../contract/result-size';
import { resizedForModel, uploadAsOutput } from '../images/finishing/model-input';
import type { InferenceProvider, ProviderInput, ToolResult } from '../inference/provider';
import { isResultSize } from './result-files';
import { storedFields } from './stored-input';

export type ModelStep = { run: false } | { run: true; resizeFirst?: ResultSize };

/** The model step the job's stored input asks for (a plain run when it says nothing). */
export function modelStepOf(storedInput: unknown): ModelStep {
  const fields = storedFields(storedInput);
  if (fields.withoutModel === true) return { run: false };
  return isResultSize(fields.modelInputSize) ? { run: true, resizeFirst: fields.modelInputSize } : { run: true };
}

/**
 * The job's result before its finishing: `provider`'s run of `input` (its upload already conditioned),
 * on the upload made smaller first, or, with no model to run, the upload itself.
 */
export async function runModelStep(
  provider: InferenceProvider,
  input: ProviderInput,
  storedInput: unknown,
  signal: AbortSignal,
): Promise<ToolResult> {
  const step = modelStepOf(storedInput);
  const { image } = input;
  if (!image) return provider.run(input, signal);
  if (!step.run) return { kind: 'images', images: [uploadAsOutput(image)] };
  return provider.run(
    step.resizeFirst ? { ...input, image: await resizedForModel(image, step.resizeFirst) } : input,
    signal,
  );
}
