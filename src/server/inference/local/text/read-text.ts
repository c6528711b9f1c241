// Text in an image, read with PP-OCRv4: the detector finds the lines, each line is cropped from the
// image and read by the recogniser. Our own pipeline on onnxruntime-node and sharp (decision 019).
import sharp from 'sharp';
import { fromRaw, type RawImage } from '../raw-image';
import { boxesFromMap, DETECTOR_NORMALISATION, detectorSize } from './detect-text';
import { ocrGate } from './ocr-model';
import { ctcDecode, LINE_HEIGHT, lineWidth, RECOGNIZER_NORMALISATION } from './recognize-text';

/** At most this many lines are read, the most likely text first: a bound on a run's time. */
const MAX_LINES = 20;

export type TextLine = { text: string; score: number };

/** The lines of text found in `image`, top to bottom, each with the recogniser's confidence 0-1. */
export async function readText(image: RawImage, signal?: AbortSignal): Promise<TextLine[]> {
  // What a viewer sees: transparency over white.
  const { data: rgb, info } = await fromRaw(image)
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const upright = sharp(rgb, { raw: { width: info.width, height: info.height, channels: 3 } });
  const size = detectorSize(info.width, info.height);
  const small = await upright.clone().resize(size.width, size.height, { fit: 'fill' }).raw().toBuffer();

  return ocrGate().run(async (model) => {
    signal?.throwIfAborted();
    const detected = await model.detect({ rgb: small, ...size, ...DETECTOR_NORMALISATION });
    const boxes = boxesFromMap(detected.output, size.width, size.height)
      .sort((a, b) => b.score - a.score)
      .slice(0, MAX_LINES);
    const [fx, fy] = [info.width / size.width, info.height / size.height];
    const lines: (TextLine & { top: number; left: number })[] = [];
    for (const box of boxes) {
      signal?.throwIfAborted();
      const left = Math.floor(box.left * fx);
      const top = Math.floor(box.top * fy);
      const width = Math.max(1, Math.min(info.width - left, Math.ceil(box.width * fx)));
      const height = Math.max(1, Math.min(info.height - top, Math.ceil(box.height * fy)));
      const crop = await upright
        .clone()
        .extract({ left, top, width, height })
        .resize(lineWidth(width, height), LINE_HEIGHT, { fit: 'fill' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const read = await model.recognize({
        rgb: crop.data,
        width: crop.info.width,
        height: LINE_HEIGHT,
        ...RECOGNIZER_NORMALISATION,
      });
      const line = ctcDecode(read.best, read.bestScore, model.characters);
      if (line.text.trim() !== '') lines.push({ ...line, top, left });
    }
    return lines
      .sort((a, b) => a.top - b.top || a.left - b.left)
      .map(({ text, score }) => ({ text: text.trim(), score }));
  }, signal);
}
