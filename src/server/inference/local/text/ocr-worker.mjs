// PP-OCRv4's two networks (text detection, line recognition) in their own thread: onnxruntime-node's
// session.run is synchronous on the calling thread and would block the web server's event loop.
// Plain JavaScript on purpose: a worker does not inherit the TypeScript loader the server registers.
// The per-pixel and per-step loops run here too (a 960 px image is 2.8 M values to normalise, a
// line's output 6625 probabilities per step): on the main thread they held up the server for up to
// 90 ms.
// Protocol (ocr-model.ts): workerData { detPath, recPath, sessionOptions }; answers { ready } or
// { loadError }; then per message { network: 'det' | 'rec', rgb: Uint8Array (packed RGB), width,
// height, mean: number[3], std: number[3], bestPerStep: boolean } answers { output: Float32Array,
// dims, runMs } or, with bestPerStep, { best: Int32Array, bestScore: Float32Array, dims, runMs }
// (the likeliest class of each step of a [1, steps, classes] output); or { error }.
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';

const sessions = {};
try {
  sessions.det = await ort.InferenceSession.create(workerData.detPath, workerData.sessionOptions);
  sessions.rec = await ort.InferenceSession.create(workerData.recPath, workerData.sessionOptions);
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ loadError: String(error) });
}

/** Planar floats in the B, G, R order PaddleOCR's networks were trained on: (v / 255 - mean) / std. */
function planarBgr(rgb, width, height, mean, std) {
  const plane = width * height;
  const input = new Float32Array(plane * 3);
  for (let c = 0; c < 3; c += 1) {
    const scale = 1 / (255 * std[c]);
    const offset = mean[c] / std[c];
    const source = 2 - c;
    const start = c * plane;
    for (let p = 0; p < plane; p += 1) input[start + p] = rgb[p * 3 + source] * scale - offset;
  }
  return input;
}

/** The likeliest class of each step of a [1, steps, classes] output, and its probability. */
function bestPerStep(data, steps, classes) {
  const best = new Int32Array(steps);
  const bestScore = new Float32Array(steps);
  for (let t = 0; t < steps; t += 1) {
    let top = 0;
    for (let c = 1; c < classes; c += 1) if (data[t * classes + c] > data[t * classes + top]) top = c;
    best[t] = top;
    bestScore[t] = data[t * classes + top];
  }
  return { best, bestScore };
}

parentPort.on('message', async ({ network, rgb, width, height, mean, std, bestPerStep: reduce }) => {
  try {
    const session = sessions[network];
    const input = new ort.Tensor('float32', planarBgr(rgb, width, height, mean, std), [1, 3, height, width]);
    const start = performance.now();
    const outputs = await session.run({ [session.inputNames[0]]: input });
    const runMs = performance.now() - start;
    const result = outputs[session.outputNames[0]];
    if (reduce) {
      const { best, bestScore } = bestPerStep(result.data, result.dims[1], result.dims[2]);
      parentPort.postMessage({ best, bestScore, dims: result.dims, runMs }, [best.buffer, bestScore.buffer]);
    } else {
      const output = new Float32Array(result.data);
      parentPort.postMessage({ output, dims: result.dims, runMs }, [output.buffer]);
    }
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
