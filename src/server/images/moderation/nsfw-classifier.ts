// The real explicit-content classifier: nsfwjs's MobileNetV2 (weights bundled in the package) on
// TensorFlow.js's wasm backend, loaded once on first use and run one image at a time.
import sharp from 'sharp';
import { createModelGate } from '../../inference/local/model-gate';
import { getTf } from '../../inference/local/tfjs-runtime';
import { NSFW_CLASSES, type NsfwClassifier, type NsfwScores } from './image-moderation';

/** The model's input size: it would squash any image to this square itself. */
const MODEL_SIDE = 224;

/** The loaded model behind a gate (exported for the benchmark, which times the network alone). */
export const nsfwGate = createModelGate(async () => {
  const tf = await getTf();
  const nsfwjs = await import('nsfwjs');
  // nsfwjs advertises its model hosting on console.info at every load: keep it out of our log.
  const info = console.info;
  console.info = () => undefined;
  try {
    return { tf, model: await nsfwjs.load('MobileNetV2') };
  } finally {
    console.info = info;
  }
});

export function createNsfwjsClassifier(): NsfwClassifier {
  return {
    async classify(image, signal) {
      // Resized here, where it is cheap, rather than as a tensor of a 40-megapixel upload; flattened
      // on white because what counts is what a viewer sees, not pixels hidden under transparency.
      const { data } = await sharp(image.bytes)
        .rotate()
        .flatten({ background: '#ffffff' })
        .resize(MODEL_SIDE, MODEL_SIDE, { fit: 'fill' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      return nsfwGate.run(async ({ tf, model }) => {
        const input = tf.tensor3d(Int32Array.from(data), [MODEL_SIDE, MODEL_SIDE, 3], 'int32');
        try {
          const predictions = await model.classify(input, NSFW_CLASSES.length);
          const scores = Object.fromEntries(NSFW_CLASSES.map((c) => [c, 0])) as NsfwScores;
          for (const p of predictions) scores[p.className] = p.probability;
          return scores;
        } finally {
          input.dispose();
        }
      }, signal);
    },
  };
}
