// A result as the file a designer uses (issue 41, decision 063): in the format asked for, tagged with
// its upload's colour profile (the numbers untouched), with its DPI, camera and copyright metadata,
// without its GPS position unless kept, upright once; a cut-out finished as asked (cut-out-finish.ts).
// Runs in the worker after the model and before the result is stored; all the pixel work is sharp's.
import sharp, { type Sharp } from 'sharp';
import {
  type CutOutFinish,
  DEFAULT_OUTPUT_QUALITY,
  formatOfType,
  OUTPUT_FORMAT_TYPES,
  type OutputFormat,
} from '../../../contract/output-files';
import type { OutputImage } from '../image-types';
import { finishCutOut } from './cut-out-finish';
import {
  type AttachedMetadata,
  exifForResult,
  pngWithMetadata,
  webpWithMetadata,
  xmpForResult,
} from './embedded-metadata';
import type { SourcePhoto } from './source-photo';

/** What a job asked of its result's file (the request's fields, kept with the job). */
export type ResultFileOptions = {
  format?: OutputFormat;
  quality?: number;
  keepLocation?: boolean;
  cutOut?: CutOutFinish;
};

const hasCutOutWork = (cutOut: CutOutFinish | undefined): cutOut is CutOutFinish =>
  cutOut !== undefined &&
  (cutOut.crop !== undefined ||
    cutOut.size !== undefined ||
    cutOut.shadow === true ||
    (cutOut.background !== undefined && cutOut.background !== 'transparent'));

/** Encodes in `format`; JPEG has no alpha, so what is left transparent lies on white (the request refused what it could foresee). */
function encoded(pipeline: Sharp, format: OutputFormat, quality: number | undefined): Sharp {
  if (format === 'png') return pipeline.png({ compressionLevel: 6 });
  const q = quality ?? DEFAULT_OUTPUT_QUALITY[format];
  if (format === 'jpeg') return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: q, mozjpeg: true });
  if (format === 'webp') return pipeline.webp({ quality: q, effort: 2 });
  return pipeline.avif({ quality: q, effort: 2 });
}

/**
 * One output image finished: unchanged when nothing is asked and the upload had nothing to carry
 * (no profile, metadata or density), so the common case costs no second encode.
 */
export async function finishResultImage(
  image: OutputImage,
  options: ResultFileOptions,
  source: SourcePhoto | null,
): Promise<OutputImage> {
  const stored = formatOfType(image.contentType) ?? 'png';
  const format = options.format ?? stored;
  const cutOut = hasCutOutWork(options.cutOut) ? options.cutOut : undefined;
  const exif = source?.exif ? exifForResult(source.exif, options.keepLocation === true) : null;
  const xmp = source?.xmp ? xmpForResult(source.xmp, options.keepLocation === true) : undefined;
  const carries = Boolean(source?.icc || exif || xmp || source?.density || source?.convertedToSrgb);
  if (format === stored && !cutOut && !carries) return image;
  if (format === stored && !cutOut) {
    // The model's own file with the metadata written beside its pixels: no second encode.
    const attached = await attachedMetadata(source, exif, xmp);
    const bytes =
      stored === 'png'
        ? pngWithMetadata(image.bytes, attached)
        : stored === 'webp'
          ? webpWithMetadata(image.bytes, attached)
          : null;
    if (bytes) return { ...image, bytes };
  }

  let pipeline = cutOut ? await finishCutOut(image.bytes, cutOut) : sharp(image.bytes);
  if (source?.icc || exif) {
    // The profile and EXIF ride in on a PNG's chunks, so the numbers are not converted on the way.
    const png = await pipeline.png({ compressionLevel: 0 }).toBuffer();
    const tagged = pngWithMetadata(png, { icc: source?.icc, exif: exif ?? undefined });
    pipeline = sharp(tagged, { ignoreIcc: true }).keepIccProfile();
    if (exif) pipeline = pipeline.keepExif();
  }
  if (source?.convertedToSrgb && !source.icc) pipeline = pipeline.withIccProfile('srgb');
  if (xmp) pipeline = pipeline.withXmp(xmp);
  if (source?.density) pipeline = pipeline.withDensity(source.density);
  const { data, info } = await encoded(pipeline, format, options.quality).toBuffer({ resolveWithObject: true });
  return { bytes: data, contentType: OUTPUT_FORMAT_TYPES[format], width: info.width, height: info.height };
}

/** sharp's own sRGB profile, for a result whose upload was converted to sRGB (read once). */
let srgbProfile: Promise<Buffer | undefined> | null = null;
const srgb = () =>
  (srgbProfile ??= sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
    .withIccProfile('srgb')
    .png()
    .toBuffer()
    .then(async (png) => (await sharp(png).metadata()).icc));

async function attachedMetadata(
  source: SourcePhoto | null,
  exif: Buffer | null,
  xmp: string | undefined,
): Promise<AttachedMetadata> {
  const icc = source?.icc ?? (source?.convertedToSrgb ? await srgb() : undefined);
  return {
    ...(icc ? { icc } : {}),
    ...(exif ? { exif } : {}),
    ...(xmp ? { xmp } : {}),
    ...(source?.density ? { density: source.density } : {}),
  };
}
