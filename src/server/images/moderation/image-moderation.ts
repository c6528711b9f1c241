// The explicit-content check of uploaded images, made before a tool call is charged. What counts
// as explicit and whether to refuse it is configuration (NSFW_POLICY, NSFW_THRESHOLD); the
// classifier behind it is an interface so tests can put a fake in place of the real model.
import type { ImageInput } from '../image-types';

export const NSFW_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;
export type NsfwClass = (typeof NSFW_CLASSES)[number];
/** Each class's probability; they add up to 1. */
export type NsfwScores = Record<NsfwClass, number>;

export interface NsfwClassifier {
  classify(image: ImageInput, signal?: AbortSignal): Promise<NsfwScores>;
}

export type ModerationConfig = { policy: 'block' | 'allow'; threshold: number };

export const EXPLICIT_IMAGE_MESSAGE = 'This image cannot be processed because it appears to contain explicit content.';

/**
 * The explicit classes. "Sexy" (swimwear, lingerie, suggestive poses) is left out on purpose:
 * fashion and beach photos are ordinary work for the product's designers, and the model puts many
 * of them there. The classes are exclusive, so their probabilities add up to P(explicit).
 */
const EXPLICIT_CLASSES: NsfwClass[] = ['Porn', 'Hentai'];

export const explicitScore = (scores: NsfwScores) => EXPLICIT_CLASSES.reduce((sum, c) => sum + scores[c], 0);

export type ModerationVerdict = { blocked: false } | { blocked: true; explicitScore: number };

export type ImageModeration = {
  /** Blocked when any image's explicit score reaches the threshold (never, under policy allow). */
  check(images: ImageInput[], signal?: AbortSignal): Promise<ModerationVerdict>;
};

export function createImageModeration(config: ModerationConfig, classifier: NsfwClassifier): ImageModeration {
  return {
    async check(images, signal) {
      // Under "allow" the model is never even loaded.
      if (config.policy === 'allow') return { blocked: false };
      for (const image of images) {
        const score = explicitScore(await classifier.classify(image, signal));
        if (score >= config.threshold) return { blocked: true, explicitScore: score };
      }
      return { blocked: false };
    },
  };
}
