// The ISNet session in its own thread. onnxruntime-node's session.run is synchronous on the calling
// thread: on the main thread one 1024x1024 run would freeze the web server for seconds. Plain
// JavaScript on purpose: a worker does not inherit the TypeScript loader the server registers.
// Protocol (isnet-model.ts): workerData { model: ArrayBuffer, sessionOptions }; answers { ready, inputName,
// outputName } or { loadError }; then per message { input: Float32Array, side } answers
// { scores: Float32Array, runMs } or { error }.
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';

let session;
try {
  session = await ort.InferenceSession.create(new Uint8Array(workerData.model), workerData.sessionOptions);
  parentPort.postMessage({ ready: true, inputName: session.inputNames[0], outputName: session.outputNames[0] });
} catch (error) {
  parentPort.postMessage({ loadError: String(error) });
}

parentPort.on('message', async ({ input, side }) => {
  try {
    const tensor = new ort.Tensor('float32', input, [1, 3, side, side]);
    const start = performance.now();
    // Only the final mask is fetched: the graph also exposes its side outputs (deep supervision).
    const outputs = await session.run({ [session.inputNames[0]]: tensor }, [session.outputNames[0]]);
    const runMs = performance.now() - start;
    // A copy the thread owns, so that it can be handed over without another copy.
    const scores = new Float32Array(outputs[session.outputNames[0]].data);
    parentPort.postMessage({ scores, runMs }, [scores.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
