import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FIXTURE_IMAGES } from '../faces/fixture-image';
import { decodeRgb } from '../raw-image';
import { ONNX_INPUT, ONNX_OUTPUT } from './esrgan-onnx';
import { halfToFloat, parseNcnnParam } from './ncnn-model';
import { ncnnOnnxGraph } from './ncnn-onnx';
import { writeOnnxModel } from './onnx-writer';
import { psnr } from './sharpness';
import { restore4x } from './super-resolve';

const SLOW = 60_000;

/**
 * A tiny model using every layer Real-ESRGAN needs: a 1x1 convolution (fp16 kernel, fp32 bias,
 * leaky ReLU 0.2) to 12 channels, pixel shuffle to 2x, plus the input upsampled 2x (nearest) at
 * weight 1 and the convolution's branch at 0.5.
 */
const TINY_PARAM = `7767517
6 7
Input            in    0 1 data
Split            sp    1 2 data d0 d1
Convolution      conv  1 1 d0 c 0=12 1=1 5=1 6=36 9=2 -23310=1,2.000000e-01
PixelShuffle     ps    1 1 c p 0=2
Interp           up    1 1 d1 u 0=1 1=2.000000e+00 2=2.000000e+00
Eltwise          sum   2 1 p u out 0=1 -23301=2,5.000000e-01,1.000000e+00
`;

/** Output channel k copies input channel floor(k / 4), plus a bias of -0.5, -0.25, 0 or 0.25 (k % 4). */
function tinyBin(): Buffer {
  const tag = Buffer.alloc(4);
  tag.writeUInt32LE(0x01306b47); // fp16 follows
  const kernel = Buffer.alloc(36 * 2);
  for (let k = 0; k < 12; k++) kernel.writeUInt16LE(0x3c00, (k * 3 + Math.floor(k / 4)) * 2); // 1.0 in fp16
  const bias = Buffer.alloc(12 * 4);
  for (let k = 0; k < 12; k++) bias.writeFloatLE((k % 4) * 0.25 - 0.5, k * 4);
  return Buffer.concat([tag, kernel, bias]);
}

async function runGraph(model: Buffer, pixels: number[], width: number, height: number) {
  const session = await ort.InferenceSession.create(model);
  const out = await session.run({
    [ONNX_INPUT]: new ort.Tensor('float32', Float32Array.from(pixels), [1, height, width, 3]),
  });
  const result = out[ONNX_OUTPUT];
  if (!result) throw new Error('no output');
  return { dims: result.dims, data: Array.from(result.data as Float32Array) };
}

describe('ncnn model files', () => {
  it('parses layers, their blobs, plain and array parameters', () => {
    const layers = parseNcnnParam(TINY_PARAM);
    expect(layers.map((l) => l.type)).toEqual(['Input', 'Split', 'Convolution', 'PixelShuffle', 'Interp', 'Eltwise']);
    const conv = layers[2];
    expect(conv).toMatchObject({ name: 'conv', inputs: ['d0'], outputs: ['c'] });
    expect(conv?.params.get(0)).toBe(12);
    expect(conv?.params.get(10)).toEqual([0.2]);
    expect(layers[5]?.params.get(1)).toEqual([0.5, 1]);
  });

  it('refuses a file that is not an ncnn graph, or whose layer count is wrong', () => {
    expect(() => parseNcnnParam('{"format": "onnx"}')).toThrow('bad magic number');
    expect(() => parseNcnnParam(TINY_PARAM.replace('6 7', '5 7'))).toThrow('6 layers, the header says 5');
  });

  it('reads half-precision numbers', () => {
    expect([0x3c00, 0xc000, 0x3800, 0x0000, 0x7bff].map(halfToFloat)).toEqual([1, -2, 0.5, 0, 65504]);
  });
});

describe('ncnn to ONNX', () => {
  it('gives the hand-computed answer on a tiny model', async () => {
    const graph = ncnnOnnxGraph(parseNcnnParam(TINY_PARAM), tinyBin());
    // One pixel, R G B = 0.2, 0.4, 0.8 of full scale.
    const { dims, data } = await runGraph(writeOnnxModel(graph, 'tiny'), [51, 102, 204], 1, 1);
    expect(dims).toEqual([1, 2, 2, 3]);
    // Sub-pixel (i, j) of red: 0.5 * leaky(0.2 + bias) + 0.2, then x255. Biases -0.5, -0.25, 0, 0.25
    // give leaky(-0.3) = -0.06, leaky(-0.05) = -0.01, 0.2, 0.45.
    const red = [0, 1, 2, 3].map((p) => data[p * 3] ?? Number.NaN);
    const expected = [0.17, 0.195, 0.3, 0.425].map((v) => v * 255);
    for (const [i, v] of red.entries()) expect(v).toBeCloseTo(expected[i] ?? Number.NaN, 3);
    // Green at (1, 1): 0.5 * (0.4 + 0.25) + 0.4.
    expect(data[3 * 3 + 1]).toBeCloseTo(0.725 * 255, 3);
  });

  it('refuses weights that do not match the graph', () => {
    const layers = parseNcnnParam(TINY_PARAM);
    expect(() => ncnnOnnxGraph(layers, tinyBin().subarray(0, 40))).toThrow('shorter than its graph needs');
    expect(() => ncnnOnnxGraph(layers, Buffer.concat([tinyBin(), Buffer.alloc(4)]))).toThrow('the graph read');
  });

  it(
    "converts Real-ESRGAN's x4fast, which turns a 16x16 image into a 64x64 one like it",
    async () => {
      const png = await sharp(path.join(FIXTURE_IMAGES, 'astronaut.png'))
        .extract({ left: 200, top: 100, width: 64, height: 64 })
        .png()
        .toBuffer();
      const truth = await decodeRgb(png);
      const small = await decodeRgb(await sharp(png).resize(16, 16, { kernel: 'lanczos3' }).png().toBuffer());
      const out = await restore4x(small, 'x4fast');
      expect({ width: out.width, height: out.height, channels: out.channels }).toEqual({
        width: 64,
        height: 64,
        channels: 3,
      });
      // Weights read wrongly give noise or a flat image, tens of dB away.
      expect(psnr(out, truth)).toBeGreaterThan(20);
    },
    SLOW,
  );
});
