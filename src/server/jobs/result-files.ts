// A job's result images as files (issue 41, decision 063): the options the call asked for, read from
// the job's stored input, applied to each output between the model run and storage
// (images/finishing/). Both ends of a run come here: a run that answered at once, and a provider's
// later answer (a webhook), which reads its upload again for what the result keeps of it.
import type { CutOutFinish, OutputFormat } from '../../contract/output-files';
import type { ResultSize } from '../../contract/result-size';
import { finishResultImage, type ResultFileOptions } from '../images/finishing/result-file';
import { readSourcePhoto, type SourcePhoto } from '../images/finishing/source-photo';
import type { OutputImage } from '../images/image-types';
import { storedFields } from './stored-input';

/** The file options a job was called with (the request's fields, as its stored input keeps them). */
export function resultFileOptionsOf(storedInput: unknown): ResultFileOptions {
  const fields = storedFields(storedInput);
  const cutOut: CutOutFinish = {
    ...(typeof fields.background === 'string' ? { background: fields.background } : {}),
    ...(typeof fields.crop === 'number' ? { crop: fields.crop } : {}),
    ...(typeof fields.size === 'number' ? { size: fields.size } : {}),
    ...(fields.shadow === true ? { shadow: true } : {}),
    ...(fields.mode === 'blur' || fields.mode === 'mask' ? { mode: fields.mode } : {}),
    ...(typeof fields.blurStrength === 'number' ? { blurStrength: fields.blurStrength } : {}),
    ...(fields.cleanEdges === true ? { cleanEdges: true } : {}),
  };
  return {
    ...(typeof fields.outputFormat === 'string' ? { format: fields.outputFormat as OutputFormat } : {}),
    ...(typeof fields.outputQuality === 'number' ? { quality: fields.outputQuality } : {}),
    ...(fields.keepLocation === true ? { keepLocation: true } : {}),
    ...(Object.keys(cutOut).length ? { cutOut } : {}),
    // An upscale to a size (decisions 081, 084): the exact size to make of the output, and the DPI to write.
    ...(isResultSize(fields.resultSize) ? { resize: fields.resultSize } : {}),
    ...(typeof fields.dpi === 'number' ? { density: fields.dpi } : {}),
  };
}

/** Whether a stored field is a ResultSize (a width, a height, or a long and a short side, each positive). */
export const isResultSize = (value: unknown): value is ResultSize =>
  typeof value === 'object' &&
  value !== null &&
  Object.values(value).length > 0 &&
  Object.values(value).every((side) => typeof side === 'number' && side > 0);

/**
 * The outputs finished as the job asked. `source`: what the upload carries (null: the tool takes
 * none); `loadUpload` reads the upload when the run did not (a provider's later answer).
 */
export async function finishedOutputs(
  storedInput: unknown,
  images: OutputImage[],
  source: SourcePhoto | null | (() => Promise<SourcePhoto | null>),
): Promise<OutputImage[]> {
  const options = resultFileOptionsOf(storedInput);
  const photo = typeof source === 'function' ? await source() : source;
  return Promise.all(images.map((image) => finishResultImage(image, options, photo)));
}

/** What the first upload carries, read from its bytes (null: there is none). */
export const sourcePhotoOfUploads = async (uploads: { bytes: Buffer }[]) =>
  uploads[0] ? readSourcePhoto(uploads[0] as Parameters<typeof readSourcePhoto>[0]) : null;
