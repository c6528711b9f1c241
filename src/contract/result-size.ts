// The exact size a result is made to after its model (decision 081: an upscale to a size), in terms
// of the model's output so that an upload turned upright by its EXIF still gets the side asked. The
// Image Upscaler's plan (its contract folder's target-size.ts) and the server's finishing
// (server/images/finishing/result-file.ts) both read it.

/**
 * What the finishing makes of the model's output, in terms of that output (so that an upload turned
 * upright by its EXIF still gets the side asked): one side exact and the other from the photo's
 * aspect, or a print's long and short sides in the photo's own orientation (a square photo: portrait).
 */
export type ResultSize = { width: number } | { height: number } | { long: number; short: number };

export type Size = { width: number; height: number };

/**
 * The exact size of the result for an image of `image`'s size. A print size is covered: the photo
 * enlarged until both of the print's sides are filled, the overflow of its other side cropped evenly
 * (a 3:4 phone photo on A4 loses about 3% at the top and bottom).
 */
export function resultSizeFor(image: Size, size: ResultSize): Size {
  if ('width' in size)
    return { width: size.width, height: Math.max(1, Math.round((image.height * size.width) / image.width)) };
  if ('height' in size)
    return { width: Math.max(1, Math.round((image.width * size.height) / image.height)), height: size.height };
  return image.width > image.height
    ? { width: size.long, height: size.short }
    : { width: size.short, height: size.long };
}
