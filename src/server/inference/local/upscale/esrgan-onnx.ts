// The RDN networks of esrgan-model.ts rebuilt as ONNX graphs from the package's own weights, for
// onnxruntime-node: it runs on both cores where TensorFlow.js's wasm backend has one thread here
// (bench/local-models/upscale.bench.ts compares them). Keras layers map one-to-one to ONNX ops:
// Conv2D -> Conv (+ Relu), Concatenate -> Concat, Add -> Sum, UpSampling2D -> Resize (nearest).
// ONNX convolutions are NCHW, so the graph transposes at its ends and keeps the NHWC interface.
import * as ort from 'onnxruntime-node';
import { onnxSessionOptions } from '../onnx-session-options';
import { type EsrganFiles, type EsrganSize, type KerasLayer, readEsrganFiles, type SrScale } from './esrgan-model';
import { type OnnxGraph, type OnnxNode, type OnnxTensor, writeOnnxModel } from './onnx-writer';

export const ONNX_INPUT = 'LR_nhwc';
export const ONNX_OUTPUT = 'SR_nhwc';

export async function loadEsrganOnnx(scale: SrScale, size: EsrganSize = 'slim'): Promise<ort.InferenceSession> {
  const model = writeOnnxModel(esrganOnnxGraph(await readEsrganFiles(scale, size)), `esrgan-${size}-x${scale}`);
  return ort.InferenceSession.create(model, onnxSessionOptions());
}

export function esrganOnnxGraph({ topology, weightSpecs, weights }: EsrganFiles): OnnxGraph {
  const weight = weightReader(weightSpecs, weights);
  const { layers, output_layers } = topology.model_config.config;
  const nodes: OnnxNode[] = [];
  const initializers: OnnxTensor[] = [];
  const renamed = new Map<string, string>();
  const source = (layer: KerasLayer): [string, ...string[]] => {
    const [first, ...rest] = (layer.inbound_nodes[0] ?? []).map(([from]) => renamed.get(from) ?? from);
    if (first === undefined) throw new Error(`ESRGAN to ONNX: ${layer.name} has no input`);
    return [first, ...rest];
  };

  for (const layer of layers) {
    const c = layer.config;
    const out = layer.name;
    switch (layer.class_name) {
      case 'InputLayer':
        nodes.push({ op: 'Transpose', inputs: [ONNX_INPUT], outputs: [out], attributes: { perm: [0, 3, 1, 2] } });
        break;
      case 'Conv2D': {
        const [kh, kw] = c.kernel_size as [number, number];
        const strides = c.strides as number[];
        const dilations = c.dilation_rate as number[];
        if (strides.some((s) => s !== 1) || dilations.some((d) => d !== 1) || (kh % 2 === 0 && c.padding === 'same')) {
          throw new Error(`ESRGAN to ONNX: unsupported convolution ${out}`);
        }
        const kernel = weight(`${out}/kernel`);
        const [h, w, i, o] = kernel.shape;
        if (kernel.shape.length !== 4 || h !== kh || w !== kw || i === undefined || o === undefined) {
          throw new Error(`ESRGAN to ONNX: kernel of ${out} has shape ${kernel.shape.join('x')}`);
        }
        initializers.push({ name: `${out}/kernel`, dims: [o, i, kh, kw], data: toOihw(kernel.data, [kh, kw, i, o]) });
        const inputs = [...source(layer), `${out}/kernel`];
        if (c.use_bias) {
          const bias = weight(`${out}/bias`);
          initializers.push({ name: `${out}/bias`, dims: bias.shape, data: bias.data });
          inputs.push(`${out}/bias`);
        }
        const [ph, pw] = c.padding === 'same' ? [(kh - 1) / 2, (kw - 1) / 2] : [0, 0];
        const relu = activation(layer) === 'relu';
        const conv = relu ? `${out}/linear` : out;
        nodes.push({
          op: 'Conv',
          inputs,
          outputs: [conv],
          attributes: { kernel_shape: [kh, kw], pads: [ph, pw, ph, pw] },
        });
        if (relu) nodes.push({ op: 'Relu', inputs: [conv], outputs: [out] });
        break;
      }
      case 'Activation':
        if (activation(layer) === 'linear') renamed.set(out, source(layer)[0]);
        else if (activation(layer) === 'relu') nodes.push({ op: 'Relu', inputs: source(layer), outputs: [out] });
        else throw new Error(`ESRGAN to ONNX: unsupported activation ${String(c.activation)}`);
        break;
      case 'Concatenate':
        if (c.axis !== 3 && c.axis !== -1) throw new Error(`ESRGAN to ONNX: concatenation on axis ${String(c.axis)}`);
        nodes.push({ op: 'Concat', inputs: source(layer), outputs: [out], attributes: { axis: 1 } });
        break;
      case 'Add':
        nodes.push({ op: 'Sum', inputs: source(layer), outputs: [out] });
        break;
      case 'UpSampling2D': {
        if (c.interpolation !== 'nearest') throw new Error(`ESRGAN to ONNX: ${String(c.interpolation)} upsampling`);
        const [sh, sw] = c.size as [number, number];
        initializers.push({ name: `${out}/scales`, dims: [4], data: new Float32Array([1, 1, sh, sw]) });
        nodes.push({
          op: 'Resize',
          inputs: [...source(layer), '', `${out}/scales`],
          outputs: [out],
          // Keras's nearest upsampling repeats each pixel: output (y, x) reads input (floor(y/s), floor(x/s)).
          attributes: { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' },
        });
        break;
      }
      default:
        throw new Error(`ESRGAN to ONNX: unsupported layer ${layer.class_name} (${out})`);
    }
  }
  const last = output_layers[0]?.[0];
  if (last === undefined) throw new Error('ESRGAN to ONNX: the model names no output');
  nodes.push({
    op: 'Transpose',
    inputs: [renamed.get(last) ?? last],
    outputs: [ONNX_OUTPUT],
    attributes: { perm: [0, 2, 3, 1] },
  });
  return {
    nodes,
    initializers,
    inputs: [{ name: ONNX_INPUT, dims: [1, 'height', 'width', 3] }],
    outputs: [{ name: ONNX_OUTPUT, dims: [1, 'out_height', 'out_width', 3] }],
    opset: 13,
  };
}

const activation = (layer: KerasLayer) => String(layer.config.activation ?? 'linear');

function weightReader(specs: EsrganFiles['weightSpecs'], weights: Buffer) {
  const byName = new Map<string, { shape: number[]; data: Float32Array }>();
  let offset = 0;
  // Copied out of the file buffer: a Float32Array needs 4-byte alignment that a Buffer's offset may lack.
  const all = new Float32Array(weights.byteLength / 4);
  new Uint8Array(all.buffer).set(weights);
  for (const { name, shape, dtype } of specs) {
    if (dtype !== 'float32') throw new Error(`ESRGAN to ONNX: ${name} is ${dtype}`);
    const count = shape.reduce((a, b) => a * b, 1);
    byName.set(name, { shape, data: all.subarray(offset, offset + count) });
    offset += count;
  }
  if (offset !== all.length) throw new Error('ESRGAN to ONNX: the weights do not match their manifest');
  return (name: string) => {
    const w = byName.get(name);
    if (!w) throw new Error(`ESRGAN to ONNX: no weight ${name}`);
    return w;
  };
}

/** Keras kernels are [height, width, in, out]; ONNX wants [out, in, height, width]. */
function toOihw(hwio: Float32Array, [h, w, i, o]: [number, number, number, number]): Float32Array {
  const out = new Float32Array(hwio.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let ci = 0; ci < i; ci++) {
        for (let co = 0; co < o; co++)
          out[((co * i + ci) * h + y) * w + x] = hwio[((y * w + x) * i + ci) * o + co] ?? 0;
      }
    }
  }
  return out;
}
