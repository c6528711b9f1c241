// Just enough of the ONNX protobuf format (onnx/onnx.proto) to write a model file in memory for
// onnxruntime-node: nodes with int/ints/string attributes, float32 initializers, float32 inputs and
// outputs. No protobuf library is installed and the schema needed is tiny, so it is written by hand.

export type OnnxAttribute = number | number[] | string;
export type OnnxNode = { op: string; inputs: string[]; outputs: string[]; attributes?: Record<string, OnnxAttribute> };
export type OnnxTensor = { name: string; dims: number[]; data: Float32Array };
/** A float32 graph input or output; a string dim is symbolic (any size). */
export type OnnxValue = { name: string; dims: (number | string)[] };
export type OnnxGraph = {
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  opset: number;
};

const VARINT = 0;
const BYTES = 2;
const FLOAT = 1; // TensorProto.DataType and TypeProto element type
const ATTR_INT = 2;
const ATTR_STRING = 3;
const ATTR_INTS = 7;

/** A protobuf message under construction: fields appended in order. */
class Message {
  private readonly parts: Buffer[] = [];

  int(field: number, value: number): this {
    if (!Number.isSafeInteger(value)) throw new Error(`onnx-writer: ${value} is not an integer`);
    this.parts.push(varint((field << 3) | VARINT), varint(value));
    return this;
  }

  bytes(field: number, value: Buffer | string | Message): this {
    const data = value instanceof Message ? value.toBuffer() : Buffer.from(value);
    this.parts.push(varint((field << 3) | BYTES), varint(data.length), data);
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function varint(value: number): Buffer {
  // Negative int64 values take ten bytes in two's complement.
  let v = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    bytes.push(v ? low | 0x80 : low);
  } while (v);
  return Buffer.from(bytes);
}

function attribute(name: string, value: OnnxAttribute): Message {
  const m = new Message().bytes(1, name);
  if (typeof value === 'string') return m.bytes(4, value).int(20, ATTR_STRING);
  if (typeof value === 'number') return m.int(3, value).int(20, ATTR_INT);
  for (const v of value) m.int(8, v);
  return m.int(20, ATTR_INTS);
}

function node({ op, inputs, outputs, attributes = {} }: OnnxNode, index: number): Message {
  const m = new Message();
  for (const i of inputs) m.bytes(1, i);
  for (const o of outputs) m.bytes(2, o);
  m.bytes(3, `${op}_${index}`).bytes(4, op);
  for (const [name, value] of Object.entries(attributes)) m.bytes(5, attribute(name, value));
  return m;
}

function tensor({ name, dims, data }: OnnxTensor): Message {
  if (data.length !== dims.reduce((a, b) => a * b, 1)) throw new Error(`onnx-writer: ${name} has the wrong size`);
  const m = new Message();
  for (const d of dims) m.int(1, d);
  // Float32Array is little-endian on every platform Node runs on, as raw_data requires.
  return m
    .int(2, FLOAT)
    .bytes(8, name)
    .bytes(9, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
}

function value({ name, dims }: OnnxValue): Message {
  const shape = new Message();
  for (const d of dims) shape.bytes(1, typeof d === 'number' ? new Message().int(1, d) : new Message().bytes(2, d));
  const tensorType = new Message().int(1, FLOAT).bytes(2, shape);
  return new Message().bytes(1, name).bytes(2, new Message().bytes(1, tensorType));
}

/** The serialized ModelProto, ready for ort.InferenceSession.create. */
export function writeOnnxModel(graph: OnnxGraph, producer: string): Buffer {
  const g = new Message();
  for (const [i, n] of graph.nodes.entries()) g.bytes(1, node(n, i));
  g.bytes(2, producer);
  for (const t of graph.initializers) g.bytes(5, tensor(t));
  for (const v of graph.inputs) g.bytes(11, value(v));
  for (const v of graph.outputs) g.bytes(12, value(v));
  return new Message()
    .int(1, 8) // IR version 8 (ONNX 1.10+), enough for opset 13
    .bytes(2, producer)
    .bytes(7, g)
    .bytes(8, new Message().bytes(1, '').int(2, graph.opset))
    .toBuffer();
}
