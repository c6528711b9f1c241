// The real explicit-content classifier: nsfwjs's MobileNetV2 (weights bundled in the package) on
// TensorFlow.js's wasm backend, in its own thread (nsfw-worker.mjs) so that a check never blocks
// the event loop; loaded once on first use and run one image at a time. It is a local model like the
// others here; the upload check (images/moderation/) receives it as its NsfwClassifier from system.ts.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  NSFW_CLASSES,
  type NsfwClass,
  type NsfwClassifier,
  type NsfwScores,
} from '../../../images/moderation/image-moderation';
import { createModelGate, type ModelGate } from '../model-gate';
import { type ModelThread, startModelThread } from '../model-thread';

/** The model's input size: it would squash any image to this square itself. */
const MODEL_SIDE = 224;

type Prediction = { className: NsfwClass; probability: number };

/** The scores of the last few images, by content: the Image Analyzer reuses the upload check's. */
const REMEMBERED_IMAGES = 8;
const recentScores = new Map<string, NsfwScores>();

function remember(key: string, scores: NsfwScores) {
  recentScores.delete(key);
  recentScores.set(key, scores);
  const oldest = recentScores.keys().next().value;
  if (recentScores.size > REMEMBERED_IMAGES && oldest !== undefined) recentScores.delete(oldest);
}

let gate: ModelGate<ModelThread> | undefined;

/** The model's thread behind a gate (exported for the benchmark, which times the network alone). */
export function nsfwGate(): ModelGate<ModelThread> {
  if (!gate) {
    const created = createModelGate(() =>
      // A thread that died is dropped, so that the next check loads the model afresh.
      startModelThread('nsfwjs MobileNetV2', new URL('./nsfw-worker.mjs', import.meta.url), {}, () => {
        if (gate === created) gate = undefined;
      }),
    );
    gate = created;
  }
  return gate;
}

/** Runs the network on `pixels` (MODEL_SIDE square RGB): its predictions and its own time. */
export const runNsfwModel = (thread: ModelThread, pixels: Uint8Array) =>
  thread.ask<{ predictions: Prediction[]; runMs: number }>({
    pixels,
    side: MODEL_SIDE,
    classes: NSFW_CLASSES.length,
  });

export function createNsfwjsClassifier(): NsfwClassifier {
  return {
    async classify(image, signal) {
      const key = createHash('sha256').update(image.bytes).digest('hex');
      const known = recentScores.get(key);
      if (known) return { ...known };
      // Resized here, where it is cheap (libvips works off the main thread), rather than as a
      // tensor of a 40-megapixel upload; flattened on white because what counts is what a viewer
      // sees, not pixels hidden under transparency.
      const { data } = await sharp(image.bytes)
        .rotate()
        .flatten({ background: '#ffffff' })
        .resize(MODEL_SIDE, MODEL_SIDE, { fit: 'fill' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { predictions } = await nsfwGate().run((thread) => runNsfwModel(thread, data), signal);
      const scores = Object.fromEntries(NSFW_CLASSES.map((c) => [c, 0])) as NsfwScores;
      for (const p of predictions) scores[p.className] = p.probability;
      remember(key, scores);
      return { ...scores };
    },
  };
}
