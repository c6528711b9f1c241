// The RDN super-resolution networks shipped by @upscalerjs/esrgan-* as TensorFlow.js layers-models
// (models/x<scale>/model.json + weights). upscaler/node needs tfjs-node, which cannot install here,
// so the files are read from the package and run either on TensorFlow.js's wasm backend (here) or
// rebuilt as an ONNX graph for onnxruntime-node (esrgan-onnx.ts).
// These RDN models use only built-in Keras layers (Conv2D, Concatenate, Add, UpSampling2D): no
// custom layer to register. They take and give NHWC pixels in 0..255.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { LayersModel } from '@tensorflow/tfjs';
import { getTf } from '../tfjs-runtime';

export type SrScale = 2 | 3 | 4;
/** slim: 12 convolutions; medium: 28 (2-3x slower for +0.1-0.3 dB, bench/local-models/upscale.bench.ts). */
export type EsrganSize = 'slim' | 'medium';

/** A Keras layer as model.json describes it. */
export type KerasLayer = {
  class_name: string;
  name: string;
  config: Record<string, unknown>;
  inbound_nodes: [string, number, number, object][][];
};
export type WeightSpec = { name: string; shape: number[]; dtype: 'float32' };

export type EsrganFiles = {
  topology: { model_config: { config: { layers: KerasLayer[]; output_layers: [string, number, number][] } } };
  weightSpecs: WeightSpec[];
  /** Every weight, float32 little-endian, in the order of weightSpecs. */
  weights: Buffer;
};

function packageRoot(size: EsrganSize): string {
  // The package exports no package.json: find its root from its CommonJS entry (<root>/dist/cjs/...).
  const entry = createRequire(import.meta.url).resolve(`@upscalerjs/esrgan-${size}`);
  const at = entry.lastIndexOf(`${path.sep}dist${path.sep}`);
  if (at < 0) throw new Error(`unexpected layout of @upscalerjs/esrgan-${size}: ${entry}`);
  return entry.slice(0, at);
}

export async function readEsrganFiles(scale: SrScale, size: EsrganSize): Promise<EsrganFiles> {
  const dir = path.join(packageRoot(size), 'models', `x${scale}`);
  const json = JSON.parse(await readFile(path.join(dir, 'model.json'), 'utf8')) as {
    modelTopology: EsrganFiles['topology'];
    weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
  };
  const groups = json.weightsManifest;
  const shards = await Promise.all(groups.flatMap((g) => g.paths.map((p) => readFile(path.join(dir, p)))));
  return {
    topology: json.modelTopology,
    weightSpecs: groups.flatMap((g) => g.weights),
    weights: Buffer.concat(shards),
  };
}

/** The network on TensorFlow.js (wasm backend). */
export async function loadEsrgan(scale: SrScale, size: EsrganSize = 'slim'): Promise<LayersModel> {
  const tf = await getTf();
  const { topology, weightSpecs, weights } = await readEsrganFiles(scale, size);
  const weightData = weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength);
  return tf.loadLayersModel(tf.io.fromMemory({ modelTopology: topology, weightSpecs, weightData }));
}
