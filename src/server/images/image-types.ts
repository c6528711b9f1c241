// The image types every part of the server shares: an upload as the API checked it, and an image a
// tool made. A leaf: it imports nothing, so the image checks, the providers, the tools and the jobs
// can all use it without importing one another.

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp';

/** An uploaded image, already checked: real format from its bytes, dimensions, size limits. */
export type ImageInput = { bytes: Buffer; mime: ImageMime; width: number; height: number };

/** The types a result may be stored in: an upload's, and AVIF (issue 41's formats). */
export type OutputMime = ImageMime | 'image/avif';

/** An image a tool made, as stored and served; its size when known without reading its header. */
export type OutputImage = { bytes: Buffer; contentType: OutputMime; width?: number; height?: number };
