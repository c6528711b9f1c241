// An ncnn model (ncnn-model.ts) rebuilt as an ONNX graph for onnxruntime-node, like the RDN graphs of
// esrgan-onnx.ts and with the same interface: NHWC pixels in 0..255 in and out (the Real-ESRGAN
// networks themselves work on NCHW in 0..1, so the graph transposes and scales at its ends).
// ncnn blobs have no batch axis: a channel axis 0 there is ONNX's axis 1.
import { ONNX_INPUT, ONNX_OUTPUT } from './esrgan-onnx';
import { arrayParam, type NcnnLayer, NcnnWeights, numberParam } from './ncnn-model';
import type { OnnxGraph, OnnxNode, OnnxTensor } from './onnx-writer';

export function ncnnOnnxGraph(layers: NcnnLayer[], bin: Buffer): OnnxGraph {
  const weights = new NcnnWeights(bin);
  const nodes: OnnxNode[] = [];
  const initializers: OnnxTensor[] = [];
  const alias = new Map<string, string>();
  const blob = (name: string) => alias.get(name) ?? name;
  const constant = (name: string, dims: number[], values: Float32Array | number[]) => {
    initializers.push({ name, dims, data: Float32Array.from(values) });
    return name;
  };
  const consumed = new Set<string>();

  for (const layer of layers) {
    const inputs = layer.inputs.map(blob);
    for (const i of layer.inputs) consumed.add(i);
    const [input = '', second = ''] = inputs;
    const [out = ''] = layer.outputs;
    switch (layer.type) {
      case 'Input': {
        const unit = constant(`${out}/1_255`, [1], [1 / 255]);
        nodes.push({
          op: 'Transpose',
          inputs: [ONNX_INPUT],
          outputs: [`${out}/nchw`],
          attributes: { perm: [0, 3, 1, 2] },
        });
        nodes.push({ op: 'Mul', inputs: [`${out}/nchw`, unit], outputs: [out] });
        break;
      }
      case 'Split':
        for (const o of layer.outputs) alias.set(o, input);
        break;
      case 'Convolution':
        convolution(layer, input, out, weights, nodes, constant);
        break;
      case 'PReLU': {
        const count = numberParam(layer, 0, 0);
        const slope = weights.float32(count);
        nodes.push({
          op: 'PRelu',
          inputs: [input, constant(`${out}/slope`, count === 1 ? [1] : [count, 1, 1], slope)],
          outputs: [out],
        });
        break;
      }
      case 'Concat':
        nodes.push({
          op: 'Concat',
          inputs,
          outputs: [out],
          attributes: { axis: channelAxis(layer, numberParam(layer, 0, 0)) },
        });
        break;
      case 'Eltwise': {
        if (numberParam(layer, 0, 1) !== 1) throw new Error(`ncnn to ONNX: Eltwise ${layer.name} is not a sum`);
        const coeffs = arrayParam(layer, 1);
        const terms = inputs.map((from, i) => {
          const c = coeffs[i] ?? 1;
          if (c === 1) return from;
          nodes.push({
            op: 'Mul',
            inputs: [from, constant(`${out}/coeff${i}`, [1], [c])],
            outputs: [`${out}/term${i}`],
          });
          return `${out}/term${i}`;
        });
        nodes.push({ op: 'Sum', inputs: terms, outputs: [out] });
        break;
      }
      case 'BinaryOp': {
        const op = BINARY_OPS[numberParam(layer, 0, 0)];
        if (!op) throw new Error(`ncnn to ONNX: BinaryOp ${layer.name} of type ${numberParam(layer, 0, 0)}`);
        const other = numberParam(layer, 1, 0) ? constant(`${out}/b`, [1], [numberParam(layer, 2, 0)]) : second;
        nodes.push({ op, inputs: [input, other], outputs: [out] });
        break;
      }
      case 'Interp': {
        if (numberParam(layer, 0, 0) !== 1) throw new Error(`ncnn to ONNX: Interp ${layer.name} is not nearest`);
        const scales = constant(`${out}/scales`, [4], [1, 1, numberParam(layer, 1, 1), numberParam(layer, 2, 1)]);
        nodes.push({
          op: 'Resize',
          inputs: [input, '', scales],
          outputs: [out],
          // ncnn's nearest reads input (floor(y/s), floor(x/s)), as PyTorch's does.
          attributes: { mode: 'nearest', coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' },
        });
        break;
      }
      case 'PixelShuffle':
        // Mode 0 is PyTorch's pixel_shuffle: channel c*r*r + i*r + j goes to (c, y*r+i, x*r+j), ONNX's CRD.
        nodes.push({
          op: 'DepthToSpace',
          inputs: [input],
          outputs: [out],
          attributes: { blocksize: numberParam(layer, 0, 1), mode: numberParam(layer, 1, 0) === 0 ? 'CRD' : 'DCR' },
        });
        break;
      default:
        throw new Error(`ncnn to ONNX: unsupported layer ${layer.type} (${layer.name})`);
    }
  }
  weights.assertConsumed();

  const ends = layers.flatMap((l) => l.outputs).filter((o) => !consumed.has(o));
  if (ends.length !== 1 || ends[0] === undefined) throw new Error(`ncnn to ONNX: ${ends.length} outputs, expected 1`);
  const full = constant('output/255', [1], [255]);
  nodes.push({ op: 'Mul', inputs: [blob(ends[0]), full], outputs: ['output/255x'] });
  nodes.push({ op: 'Transpose', inputs: ['output/255x'], outputs: [ONNX_OUTPUT], attributes: { perm: [0, 2, 3, 1] } });
  return {
    nodes,
    initializers,
    inputs: [{ name: ONNX_INPUT, dims: [1, 'height', 'width', 3] }],
    outputs: [{ name: ONNX_OUTPUT, dims: [1, 'out_height', 'out_width', 3] }],
    opset: 13,
  };
}

/** ncnn's BinaryOp types that these networks use. */
const BINARY_OPS: Record<number, string> = { 0: 'Add', 1: 'Sub', 2: 'Mul', 3: 'Div' };

function channelAxis(layer: NcnnLayer, axis: number): number {
  if (axis !== 0) throw new Error(`ncnn to ONNX: ${layer.name} concatenates on axis ${axis}, not channels`);
  return 1;
}

/** Convolution, its bias and its fused activation (9: 0 none, 1 ReLU, 2 leaky ReLU with slope -23310[0]). */
function convolution(
  layer: NcnnLayer,
  input: string,
  out: string,
  weights: NcnnWeights,
  nodes: OnnxNode[],
  constant: (name: string, dims: number[], values: Float32Array | number[]) => string,
) {
  const outputs = numberParam(layer, 0, 0);
  const kw = numberParam(layer, 1, 0);
  const kh = numberParam(layer, 11, kw);
  const stride = [numberParam(layer, 13, numberParam(layer, 3, 1)), numberParam(layer, 3, 1)];
  const dilation = [numberParam(layer, 12, numberParam(layer, 2, 1)), numberParam(layer, 2, 1)];
  const padW = numberParam(layer, 4, 0);
  const pads = [
    numberParam(layer, 14, padW),
    padW,
    numberParam(layer, 16, numberParam(layer, 14, padW)),
    numberParam(layer, 15, padW),
  ];
  const size = numberParam(layer, 6, 0);
  const inputs = size / (outputs * kh * kw);
  if (!Number.isInteger(inputs) || pads.some((p) => p < 0) || [...stride, ...dilation].some((s) => s !== 1)) {
    throw new Error(`ncnn to ONNX: unsupported convolution ${layer.name}`);
  }
  // ncnn kernels are already [out][in][h][w], ONNX's order.
  const conv = [input, constant(`${out}/kernel`, [outputs, inputs, kh, kw], weights.tagged(size))];
  if (numberParam(layer, 5, 0)) conv.push(constant(`${out}/bias`, [outputs], weights.float32(outputs)));
  const activation = numberParam(layer, 9, 0);
  const linear = activation === 0 ? out : `${out}/linear`;
  nodes.push({ op: 'Conv', inputs: conv, outputs: [linear], attributes: { kernel_shape: [kh, kw], pads } });
  if (activation === 1) nodes.push({ op: 'Relu', inputs: [linear], outputs: [out] });
  else if (activation === 2) {
    const slope = constant(`${out}/slope`, [1], [arrayParam(layer, 10)[0] ?? 0]);
    nodes.push({ op: 'PRelu', inputs: [linear, slope], outputs: [out] });
  } else if (activation !== 0) throw new Error(`ncnn to ONNX: activation ${activation} of ${layer.name}`);
}
