// nsfwjs's MobileNetV2 in its own thread. TensorFlow.js's wasm backend computes on the calling
// thread: on the main thread each check froze the web server (a flood of image calls made `/` take
// 765 ms instead of 2-4 ms). Plain JavaScript on purpose: a worker does not inherit the TypeScript
// loader the server registers. This thread has its own TensorFlow.js, apart from the one Human uses.
// Protocol (nsfw-classifier.ts): answers { ready } or { loadError }; then per message
// { pixels: Uint8Array (side x side x 3 RGB), side, classes } answers { predictions, runMs } or { error }.
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';

let tf;
let model;
try {
  tf = await import('@tensorflow/tfjs');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const require = createRequire(import.meta.url);
  const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
  wasm.setWasmPaths(`${dist}${path.sep}`);
  if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js wasm backend did not start');
  await tf.ready();
  const nsfwjs = await import('nsfwjs');
  // nsfwjs advertises its model hosting on console.info at every load: keep it out of our log.
  const info = console.info;
  console.info = () => undefined;
  try {
    model = await nsfwjs.load('MobileNetV2');
  } finally {
    console.info = info;
  }
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ loadError: String(error) });
}

parentPort.on('message', async ({ pixels, side, classes }) => {
  const input = tf.tensor3d(Int32Array.from(pixels), [side, side, 3], 'int32');
  try {
    const start = performance.now();
    const predictions = await model.classify(input, classes);
    parentPort.postMessage({ predictions, runMs: performance.now() - start });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  } finally {
    input.dispose();
  }
});
