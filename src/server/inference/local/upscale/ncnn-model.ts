// Reads an ncnn model: the text .param graph (one layer a line: type, name, input and output
// blobs, then key=value parameters) and the binary .bin of weights, read layer by layer in the
// graph's order. Only what the Real-ESRGAN networks use is understood (ncnn-onnx.ts maps it to ONNX);
// anything else is refused with its name rather than guessed.

export type NcnnParam = number | number[];
export type NcnnLayer = {
  type: string;
  name: string;
  inputs: string[];
  outputs: string[];
  /** Parameters by id; an array parameter (written -233xx=count,v1,v2...) under its id xx. */
  params: Map<number, NcnnParam>;
};

const MAGIC = 7767517;

export function parseNcnnParam(text: string): NcnnLayer[] {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (Number(lines[0]) !== MAGIC) throw new Error('ncnn: not a .param file (bad magic number)');
  const [layerCount] = (lines[1] ?? '').split(/\s+/).map(Number);
  const layers = lines.slice(2).map(parseLayer);
  if (layers.length !== layerCount) throw new Error(`ncnn: ${layers.length} layers, the header says ${layerCount}`);
  return layers;
}

function parseLayer(line: string): NcnnLayer {
  const [type = '', name = '', inCount, outCount, ...rest] = line.split(/\s+/);
  const nIn = Number(inCount);
  const nOut = Number(outCount);
  if (!Number.isInteger(nIn) || !Number.isInteger(nOut)) throw new Error(`ncnn: bad layer line "${line}"`);
  const params = new Map<number, NcnnParam>();
  for (const pair of rest.slice(nIn + nOut)) {
    const [key = '', value = ''] = pair.split('=');
    const id = Number(key);
    if (id <= -23300) {
      // An array: its length, then its values.
      const [, ...values] = value.split(',').map(Number);
      params.set(-id - 23300, values);
    } else {
      params.set(id, Number(value));
    }
  }
  return { type, name, inputs: rest.slice(0, nIn), outputs: rest.slice(nIn, nIn + nOut), params };
}

export function numberParam(layer: NcnnLayer, id: number, fallback: number): number {
  const v = layer.params.get(id);
  if (v === undefined) return fallback;
  if (typeof v !== 'number') throw new Error(`ncnn: parameter ${id} of ${layer.name} is an array`);
  return v;
}

export function arrayParam(layer: NcnnLayer, id: number): number[] {
  const v = layer.params.get(id);
  if (v === undefined) return [];
  return typeof v === 'number' ? [v] : v;
}

/** ncnn's tag before a block of half-precision weights. */
const FP16_TAG = 0x01306b47;

/** Reads the weights in .bin order: tagged blocks (fp16 or fp32) for kernels, plain fp32 for biases and slopes. */
export class NcnnWeights {
  private offset = 0;

  constructor(private readonly bin: Buffer) {}

  /** A kernel: a 4-byte tag says how it is stored. */
  tagged(count: number): Float32Array {
    const tag = this.bin.readUInt32LE(this.take(4));
    if (tag === FP16_TAG) {
      const at = this.take(Math.ceil((count * 2) / 4) * 4);
      const out = new Float32Array(count);
      for (let i = 0; i < count; i++) out[i] = halfToFloat(this.bin.readUInt16LE(at + i * 2));
      return out;
    }
    if (tag === 0) return this.float32(count);
    throw new Error(`ncnn: weights stored as 0x${tag.toString(16)} (quantized) are not supported`);
  }

  /** Plain little-endian float32 values. */
  float32(count: number): Float32Array {
    const at = this.take(count * 4);
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = this.bin.readFloatLE(at + i * 4);
    return out;
  }

  /** Throws unless every byte was read: a .bin that does not match its .param. */
  assertConsumed(): void {
    if (this.offset !== this.bin.length) {
      throw new Error(`ncnn: the .bin has ${this.bin.length} bytes, the graph read ${this.offset}`);
    }
  }

  private take(bytes: number): number {
    const at = this.offset;
    if (at + bytes > this.bin.length) throw new Error('ncnn: the .bin is shorter than its graph needs');
    this.offset += bytes;
    return at;
  }
}

/** IEEE 754 half precision to a JavaScript number. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
