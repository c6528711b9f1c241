// The landing gallery's twelve sample images (src/web/public/gallery, made by scripts/make-gallery.ts).

export type GalleryImage = { src: string; alt: string };

/** The widths each image is made in (scripts/make-gallery.ts); the largest is `src`'s own. */
export const GALLERY_WIDTHS = [320, 640] as const;
const FULL_WIDTH = GALLERY_WIDTHS[GALLERY_WIDTHS.length - 1];

/** Image `n`'s file at `width` ("3.avif" at full width, "3-320.avif" below it). */
export const galleryFile = (n: number | string, width: number, format: 'avif' | 'webp') =>
  `${n}${width === FULL_WIDTH ? '' : `-${width}`}.${format}`;

/** The `srcset` of `image` in `format`: every width of GALLERY_WIDTHS. */
export function gallerySrcSet(image: GalleryImage, format: 'avif' | 'webp'): string {
  const n = image.src.slice(image.src.lastIndexOf('/') + 1, image.src.lastIndexOf('.'));
  return GALLERY_WIDTHS.map((width) => `/gallery/${galleryFile(n, width, format)} ${width}w`).join(', ');
}

/**
 * How wide a picture shows (landing.css: two columns on phones, three from 600 px, four from 1024 px
 * in a content column of at most 1200 px).
 */
export const GALLERY_SIZES = '(min-width: 1024px) min(25vw, 300px), (min-width: 600px) 33vw, 50vw';

export const GALLERY_IMAGES: readonly GalleryImage[] = [
  { src: '/gallery/1.webp', alt: 'Astronaut portrait in a violet-to-peach tritone, a shuttle model behind her' },
  { src: '/gallery/2.webp', alt: 'Illustration of layered hills at dusk under a pale sun' },
  { src: '/gallery/3.webp', alt: 'Close-up of a tabby cat in a warm, golden grade' },
  { src: '/gallery/4.webp', alt: 'Geometric pattern of circles and quarter circles in bold colours' },
  { src: '/gallery/5.webp', alt: 'Espresso in a red cup and saucer on a wooden table' },
  { src: '/gallery/6.webp', alt: 'Soft abstract gradient of violet, peach and sky blue' },
  { src: '/gallery/7.webp', alt: 'Rocket on the launch pad at night in teal and orange' },
  { src: '/gallery/8.webp', alt: 'Concentric rings fading from violet to rose' },
  { src: '/gallery/9.webp', alt: 'Photographer behind a camera on a tripod, ink-blue duotone' },
  { src: '/gallery/10.webp', alt: 'Deep-space field of colourful distant galaxies' },
  { src: '/gallery/11.webp', alt: 'Portrait of a naval officer in a rose duotone' },
  { src: '/gallery/12.webp', alt: 'Flowing ribbons of colour on a dark background' },
];

/** At widths of 768 px or less the gallery shows this many, picked at random. */
export const PHONE_GALLERY_COUNT = 6;
export const PHONE_GALLERY_QUERY = '(max-width: 768px)';

/** `count` different images in random order. */
export function pickRandom<T>(items: readonly T[], count: number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, count);
}
