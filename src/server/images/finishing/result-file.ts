// A result as the file a designer uses (issue 41, decision 063): in the format asked for, tagged with
// its upload's colour profile (the numbers untouched), or with sRGB when the upload had none or was
// converted to sRGB, or there was none (issue 54), with its DPI, camera and copyright metadata,
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
import { type ResultSize, resultSizeFor } from '../../../contract/result-size';
import type { OutputImage } from '../image-types';
import { finishCutOut } from './cut-out-finish';
import {
  type AttachedMetadata,
  EXIF_COLOR_SPACE_SRGB,
  exifForResult,
  jpegWithIcc,
  jpegWithJfifDensity,
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
  /** The exact size to make of the output (an upscale to a size: Lanczos, a print's overflow cropped evenly). */
  resize?: ResultSize;
  /** Pixels per inch to write, instead of the upload's (JPEG JFIF and EXIF, PNG pHYs, WebP and AVIF EXIF). */
  density?: number;
};

const hasCutOutWork = (cutOut: CutOutFinish | undefined): cutOut is CutOutFinish =>
  cutOut !== undefined &&
  (cutOut.crop !== undefined ||
    cutOut.size !== undefined ||
    cutOut.shadow === true ||
    cutOut.cleanEdges === true ||
    cutOut.mode === 'blur' ||
    cutOut.mode === 'mask' ||
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
 * A file whose numbers are sRGB but that has no profile (a browser assumes sRGB, an editor may not)
 * tagged so: sharp's sRGB profile, which is an AVIF's `colr` box too; the numbers of an untagged
 * image are not changed. When EXIF is written, its ColorSpace says sRGB as well, not libexif's
 * default "Uncalibrated". Also used for a stored file converted at download (converted-file.ts).
 */
export function taggedSrgb(pipeline: Sharp, { writesExif }: { writesExif: boolean }): Sharp {
  const tagged = pipeline.withIccProfile('srgb');
  return writesExif ? tagged.withExifMerge({ IFD2: { ColorSpace: String(EXIF_COLOR_SPACE_SRGB) } }) : tagged;
}

/**
 * One output image finished. The model's own PNG or WebP, when nothing else is asked, gets its
 * profile and metadata written beside its pixels, and its own JPEG its profile when that is all it
 * carries, so the common case costs no second encode.
 */
export async function finishResultImage(
  image: OutputImage,
  options: ResultFileOptions,
  source: SourcePhoto | null,
): Promise<OutputImage> {
  const stored = formatOfType(image.contentType) ?? 'png';
  const format = options.format ?? stored;
  const cutOut = hasCutOutWork(options.cutOut) ? options.cutOut : undefined;
  const keepLocation = options.keepLocation === true;
  // Without the upload's own profile (none, converted, no upload) the result is tagged sRGB.
  const srgb = !source?.icc;
  const exif = source?.exif ? exifForResult(source.exif, { keepLocation, srgb }) : null;
  const xmp = source?.xmp ? xmpForResult(source.xmp, keepLocation) : undefined;
  const density = options.density ?? source?.density;
  const sized = !cutOut && options.resize !== undefined;
  // A grey file cannot carry an RGB profile as it is: it is encoded in RGB below (its header read only).
  const asItIs = format === stored && !cutOut && !sized && options.density === undefined;
  if (asItIs && (await sharp(image.bytes).metadata()).channels >= 3) {
    // The model's own file with the metadata written beside its pixels: no second encode.
    const attached = await attachedMetadata(source, exif, xmp);
    const onlyProfile = !attached.exif && !attached.xmp && !attached.density;
    const bytes =
      stored === 'png'
        ? pngWithMetadata(image.bytes, attached)
        : stored === 'webp'
          ? webpWithMetadata(image.bytes, attached)
          : stored === 'jpeg' && onlyProfile
            ? jpegWithIcc(image.bytes, attached.icc)
            : null;
    if (bytes) return { ...image, bytes };
  }

  if (cutOut?.mode === 'mask') {
    // The matte is data for an editor, not a photo: one grey channel, no profile or metadata to carry.
    const { data, info } = await (await finishCutOut(image.bytes, cutOut))
      .png({ compressionLevel: 6 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: OUTPUT_FORMAT_TYPES.png, width: info.width, height: info.height };
  }
  let pipeline = cutOut
    ? await finishCutOut(image.bytes, cutOut)
    : options.resize
      ? await resized(image.bytes, options.resize)
      : sharp(image.bytes);
  if (source?.icc || exif) {
    // The profile and EXIF ride in on a PNG's chunks, so the numbers are not converted on the way.
    const png = await pipeline.png({ compressionLevel: 0 }).toBuffer();
    const tagged = pngWithMetadata(png, { icc: source?.icc, exif: exif ?? undefined });
    pipeline = sharp(tagged, { ignoreIcc: true }).keepIccProfile();
    if (exif) pipeline = pipeline.keepExif();
  }
  if (xmp) pipeline = pipeline.withXmp(xmp);
  if (density) pipeline = pipeline.withDensity(density);
  // withDensity writes EXIF too (its resolution): then an sRGB result's ColorSpace must say so.
  if (srgb) pipeline = taggedSrgb(pipeline, { writesExif: Boolean(exif || density) });
  const { data, info } = await encoded(pipeline, format, options.quality).toBuffer({ resolveWithObject: true });
  // libvips writes a JPEG's DPI in EXIF only; viewers that read JFIF's density get it there too.
  const bytes = format === 'jpeg' && density ? (jpegWithJfifDensity(data, density) ?? data) : data;
  return { bytes, contentType: OUTPUT_FORMAT_TYPES[format], width: info.width, height: info.height };
}

/**
 * The output at the exact size asked, from its own size (its header read): Lanczos, a print's
 * overflow cropped evenly about its centre (resultSizeFor). Also an upload made smaller for its model
 * (model-input.ts).
 */
export async function resized(bytes: Buffer, size: ResultSize): Promise<Sharp> {
  const { width = 1, height = 1 } = await sharp(bytes).metadata();
  const target = resultSizeFor({ width, height }, size);
  return sharp(bytes).resize(target.width, target.height, { fit: 'cover', position: 'centre', kernel: 'lanczos3' });
}

/** sharp's own sRGB profile, attached to a result's bytes as taggedSrgb would (read once). */
let srgbProfile: Promise<Buffer | undefined> | null = null;
const srgbProfileBytes = () =>
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
  const icc = source?.icc ?? (await srgbProfileBytes());
  return {
    ...(icc ? { icc } : {}),
    ...(exif ? { exif } : {}),
    ...(xmp ? { xmp } : {}),
    ...(source?.density ? { density: source.density } : {}),
  };
}
