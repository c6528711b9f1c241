import { useState } from 'react';
import { useHydrated } from '../../lib/use-hydrated';
import { useMediaQuery } from '../../lib/use-media-query';
import {
  GALLERY_IMAGES,
  GALLERY_SIZES,
  gallerySrcSet,
  PHONE_GALLERY_COUNT,
  PHONE_GALLERY_QUERY,
  pickRandom,
} from './gallery-images';

/**
 * Twelve sample images; on phones (768 px or less) six of them, picked at random once per visit.
 * Prerendered (and while hydrating) as empty frames of the same size, six of them on phones by CSS:
 * the pictures, below the fold, do not compete with the page's first paint and scripts for the
 * network, and the random pick is the browser's.
 */
export function Gallery() {
  const hydrated = useHydrated();
  const narrow = useMediaQuery(PHONE_GALLERY_QUERY);
  // Picked once, kept while the page lives: turning the phone must not reshuffle the pictures.
  const [phonePick] = useState(() => pickRandom(GALLERY_IMAGES, PHONE_GALLERY_COUNT));
  const images = narrow ? phonePick : GALLERY_IMAGES;

  return (
    <section className="pp-gallery" aria-labelledby="gallery-title">
      <div className="pp-container">
        <div className="pp-section__head pp-section__head--center">
          <p className="pp-eyebrow">Gallery</p>
          <h2 id="gallery-title" className="pp-section__title">
            Made in the palette
          </h2>
          <p className="pp-section__lead">
            Portraits, products, scenes and pure colour: a taste of the looks you can create, restyle and upscale.
          </p>
        </div>
        <ul className="pp-gallery__grid" data-testid="gallery" data-pending={hydrated ? undefined : ''}>
          {images.map((image) => (
            <li key={image.src} className="pp-gallery__item">
              {/* Below the fold, never the largest paint: lazy, AVIF where the browser reads it. */}
              {hydrated ? (
                <picture>
                  <source type="image/avif" srcSet={gallerySrcSet(image, 'avif')} sizes={GALLERY_SIZES} />
                  <img
                    src={image.src}
                    srcSet={gallerySrcSet(image, 'webp')}
                    sizes={GALLERY_SIZES}
                    alt={image.alt}
                    width={640}
                    height={640}
                    loading="lazy"
                    decoding="async"
                  />
                </picture>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
