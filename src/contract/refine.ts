// Refining a cut-out by hand (issue 58 item 1, decision 082): the paths, the rules a mask must
// meet and the sentences that refuse one, for the server (server/refine/) and the editor
// (the refine editor in the web tool's folder). A refine makes a new version of a result, free.

export const REFINE_PATHS = {
  /** POST: a `mask` image in (multipart file or JSON data URL); the new version's creation out. */
  refine: (jobId: string) => `/creations/${jobId}/refine`,
  /** GET: the result's matte, white (subject) on black, one channel, the photo's size upright. */
  mask: (jobId: string) => `/creations/${jobId}/mask`,
} as const;

/** A mask's file: PNG or WebP (lossless edges; a JPEG's blocks would show in the cut-out). */
export const MASK_TYPES = ['image/png', 'image/webp'] as const;
/** A mask may be smaller than the photo (scaled up to it), its aspect ratio within this share of the photo's. */
export const MASK_ASPECT_TOLERANCE = 0.02;
/** ... but not smaller than this on its longer side. */
export const MASK_MIN_SIDE = 16;

export const REFINE_MESSAGES = {
  maskMissing: 'mask: an image is required (a PNG or WebP, white where the subject stays, black where it goes).',
  maskWrongType: 'mask: must be a PNG or WebP image (white where the subject stays, black where it goes).',
  maskWrongSize: (width: number, height: number, photoWidth: number, photoHeight: number) =>
    `mask: is ${width}x${height}; it must be the photo's size, ${photoWidth}x${photoHeight}, or smaller with the same shape.`,
  notRefinable: 'Only a Background Remover result can be refined.',
  notFinished: 'Only a finished result can be refined: wait until it is done.',
  noMatte: 'This result was made before refining by hand was possible: run it again to refine it.',
  photoGone: 'The original photo of this result has been deleted, so it cannot be refined any more.',
  noSuchCreation: 'No such creation',
} as const;
