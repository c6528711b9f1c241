// @vladmandic/human (face detection, facial expression, COCO objects) on the shared TensorFlow.js
// wasm runtime. Human's node-wasm build requires @tensorflow/tfjs-core and -backend-wasm from
// node_modules rather than bundling them, so it drives the same tfjs engine and wasm backend as
// tfjs-runtime.ts (the upscaler, the NSFW check): we start that runtime first and let Human find
// the backend already set (shared-runtime.test.ts checks that neither changes the other's results).
// Loaded once, kept, one run at a time (model-gate.ts).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config, Human, Result } from '@vladmandic/human';
import { createModelGate } from '../model-gate';
import { fromRaw, type RawImage } from '../raw-image';
import { getTf } from '../tfjs-runtime';

type Tf = Awaited<ReturnType<typeof getTf>>;
type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

const require = createRequire(import.meta.url);
// The package's exports map names its subpaths without "./", so they cannot be required by name:
// find the package's dist folder through its main entry and require the wasm build by path.
const humanDist = path.dirname(require.resolve('@vladmandic/human'));
const modelsDir = path.join(humanDist, '..', 'models');
const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));

// Human loads its models with fetch, and Node's fetch rejects file:// URLs. Rather than patch the
// global fetch, model URLs under this scheme are served from the package's models folder by a
// tfjs load router, which tfjs consults before falling back to fetch.
const MODEL_SCHEME = 'human-models://';

/** Every model Human runs here; each call turns on what it needs (see `HumanTask`). */
const BASE_CONFIG: DeepPartial<Config> = {
  backend: 'wasm',
  wasmPath: `${wasmDir}${path.sep}`,
  modelBasePath: MODEL_SCHEME,
  // Results are never reused between calls (that cache is for video frames).
  cacheSensitivity: 0,
  debug: false,
  warmup: 'none',
  // Image filters need a canvas, which Node has not.
  filter: { enabled: false },
  body: { enabled: false },
  hand: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
  object: { enabled: true, minConfidence: 0.2, maxDetected: 10 },
  face: {
    enabled: true,
    detector: { enabled: true, rotation: false, maxDetected: 20, minConfidence: 0.5, return: false },
    // The mesh refines each detector box to the face's landmarks.
    mesh: { enabled: true },
    iris: { enabled: false },
    emotion: { enabled: true, minConfidence: 0.1 },
    // Age and gender (faceres) were wrong on the test portraits (Grace Hopper: "male" 0.85): not used.
    description: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
  },
};

/**
 * What one run needs: faces only (Fix a Face); faces with expressions, or objects alone (the
 * analyzer's keywords: objects are found on a letterboxed copy, faces on the image as it is);
 * or all three.
 */
export type HumanTask = 'faces' | 'faces-expressions' | 'objects' | 'faces-expressions-objects';

const TASK_CONFIG: Record<HumanTask, DeepPartial<Config>> = {
  faces: { object: { enabled: false }, face: { enabled: true, emotion: { enabled: false } } },
  'faces-expressions': { object: { enabled: false }, face: { enabled: true, emotion: { enabled: true } } },
  objects: { object: { enabled: true }, face: { enabled: false } },
  'faces-expressions-objects': { object: { enabled: true }, face: { enabled: true, emotion: { enabled: true } } },
};

// Detection works on a copy no larger than this: blazeface sees 256 px and centernet 512 px anyway,
// and a smaller tensor spares memory on big uploads. Boxes are scaled back to the input's pixels.
export const DETECT_MAX_SIDE = 1024;

function registerModelRouter(tf: Tf) {
  // A router answers null for URLs it does not serve (tfjs's own typing omits that case).
  const router = (url: string | string[]): import('@tensorflow/tfjs').io.IOHandler | null => {
    if (typeof url !== 'string' || !url.startsWith(MODEL_SCHEME)) return null;
    const file = path.join(modelsDir, path.basename(url.slice(MODEL_SCHEME.length)));
    return {
      async load() {
        const modelJson = JSON.parse(await readFile(file, 'utf8'));
        return tf.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
          const specs = manifest.flatMap((group) => group.weights);
          const shards = await Promise.all(
            manifest.flatMap((group) => group.paths.map((p) => readFile(path.join(modelsDir, path.basename(p))))),
          );
          const all = Buffer.concat(shards);
          return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer];
        });
      },
    };
  };
  tf.io.registerLoadRouter(router as Parameters<Tf['io']['registerLoadRouter']>[0]);
}

async function loadHuman(): Promise<{ tf: Tf; human: Human }> {
  const tf = await getTf();
  registerModelRouter(tf);
  const { Human: HumanClass } = require(path.join(humanDist, 'human.node-wasm.js')) as {
    Human: new (config: DeepPartial<Config>) => Human;
  };
  const human = new HumanClass(BASE_CONFIG);
  await human.load();
  const missing = ['blazeface', 'facemesh', 'emotion', 'centernet'].filter(
    (name) => !(human.models.models as Record<string, unknown>)[name],
  );
  if (missing.length > 0) throw new Error(`human could not load its models: ${missing.join(', ')}`);
  return { tf, human };
}

const gate = createModelGate(loadHuman);

/** Whether Human's models are loaded (for health and tests). */
export const humanLoaded = () => gate.loaded;

/**
 * Runs Human on the image (one run at a time), boxes in the image's own pixels. The image is
 * reduced first, by sharp, when larger than DETECT_MAX_SIDE: wasm memory only grows, so a large
 * upload must never become a large tensor.
 */
export async function runHuman(image: RawImage, task: HumanTask, signal?: AbortSignal): Promise<Result> {
  const scale = Math.min(1, DETECT_MAX_SIDE / Math.max(image.width, image.height));
  const rgb = await reducedRgb(image, scale);
  return gate.run(async ({ tf, human }) => {
    signal?.throwIfAborted();
    const input = tf.tensor4d(rgb.data, [1, rgb.height, rgb.width, 3], 'int32');
    try {
      const detected = await human.detect(input as never, { ...TASK_CONFIG[task] } as Partial<Config>);
      if (detected.error) throw new Error(`human detection failed: ${detected.error}`);
      return scale < 1 ? rescale(detected, image.width / rgb.width, image.height / rgb.height) : detected;
    } finally {
      input.dispose();
    }
  }, signal);
}

async function reducedRgb(image: RawImage, scale: number): Promise<RawImage> {
  if (scale === 1 && image.channels === 3) return image;
  const { data, info } = await fromRaw(image)
    .removeAlpha()
    .resize(Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)), {
      fit: 'fill',
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

function rescale(result: Result, fx: number, fy: number): Result {
  const scaleBox = ([x, y, w, h]: [number, number, number, number]): [number, number, number, number] => [
    Math.round(x * fx),
    Math.round(y * fy),
    Math.round(w * fx),
    Math.round(h * fy),
  ];
  return {
    ...result,
    face: result.face.map((face) => ({ ...face, box: scaleBox(face.box) })),
    object: result.object.map((object) => ({ ...object, box: scaleBox(object.box) })),
  };
}
