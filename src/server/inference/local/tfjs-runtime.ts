// TensorFlow.js on its WebAssembly backend, set up once for every local model that needs it
// (human's face and object models, and the ESRGAN upscaler's tfjs path, which the benchmark
// compares with the onnxruntime one the tools use). The NSFW classifier sets up its own, the same
// way, in its thread (nsfw/nsfw-worker.mjs). tfjs-node cannot be installed here (its install
// downloads libtensorflow) and the pure-JS CPU backend is ~25x slower, so wasm it is.
import { createRequire } from 'node:module';
import path from 'node:path';

type Tf = typeof import('@tensorflow/tfjs');
let ready: Promise<Tf> | undefined;

export function getTf(): Promise<Tf> {
  ready ??= (async () => {
    const tf = await import('@tensorflow/tfjs');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    const require = createRequire(import.meta.url);
    const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    wasm.setWasmPaths(`${dist}${path.sep}`);
    if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js wasm backend did not start');
    await tf.ready();
    return tf;
  })();
  return ready;
}
