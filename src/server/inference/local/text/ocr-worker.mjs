// PP-OCRv4's two networks (text detection, line recognition) in their own thread: onnxruntime-node's
// session.run is synchronous on the calling thread and would block the web server's event loop.
// Plain JavaScript on purpose: a worker does not inherit the TypeScript loader the server registers.
// Protocol (ocr-model.ts): workerData { detPath, recPath, threads }; answers { ready } or
// { loadError }; then per message { network: 'det' | 'rec', input: Float32Array, dims } answers
// { output: Float32Array, dims, runMs } or { error }.
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';

const options = {
  intraOpNumThreads: workerData.threads,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  // Input sizes vary with every image and line: an arena would keep the largest run's memory.
  enableCpuMemArena: false,
};

const sessions = {};
try {
  sessions.det = await ort.InferenceSession.create(workerData.detPath, options);
  sessions.rec = await ort.InferenceSession.create(workerData.recPath, options);
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ loadError: String(error) });
}

parentPort.on('message', async ({ network, input, dims }) => {
  try {
    const session = sessions[network];
    const start = performance.now();
    const outputs = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', input, dims) });
    const result = outputs[session.outputNames[0]];
    const runMs = performance.now() - start;
    const output = new Float32Array(result.data);
    parentPort.postMessage({ output, dims: result.dims, runMs }, [output.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
