// Text to Pic: a prompt to up to four images (flux-schnell on Replicate; prompt cards as the demo).
import { type AspectRatio, OUTPUT_QUALITY, type Quality } from '../../../contract/tools';
import { request } from '../../../contract/tools/text-to-pic/request';
import { InputError } from '../../images/image-input';
import { DEMO_SIZES, promptCards } from '../../inference/demo/demo-images';
import { parseRequest, type ResultFileFields, resultFileFields } from '../request-checks';
import { defineServerTool } from '../server-tool';

export type TextToPicInput = {
  tool: 'text-to-pic';
  prompt: string;
  aspectRatio: AspectRatio;
  numOutputs: number;
  quality: Quality;
  outputQuality: 33 | 66 | 100;
} & ResultFileFields;

export const textToPic = defineServerTool<TextToPicInput>({
  id: 'text-to-pic',
  request,
  prepare(body) {
    const b = parseRequest(request, body);
    const expected = OUTPUT_QUALITY[b.quality];
    if (b.outputQuality !== undefined && b.outputQuality !== expected) {
      throw new InputError('outputQuality', `must be ${expected} for quality ${b.quality}`);
    }
    const input: TextToPicInput = {
      tool: 'text-to-pic',
      prompt: b.prompt,
      aspectRatio: b.aspectRatio,
      numOutputs: b.numOutputs,
      quality: b.quality,
      ...resultFileFields('text-to-pic', { outputFormat: b.outputFormat }),
      outputQuality: expected,
    };
    return { input, units: b.numOutputs, images: [] };
  },
  replicate: {
    model: 'black-forest-labs/flux-schnell',
    output: 'list',
    buildInput: (r) => ({
      prompt: r.prompt,
      aspect_ratio: r.aspectRatio,
      num_outputs: r.numOutputs,
      go_fast: true,
      output_format: 'webp',
      output_quality: r.outputQuality,
    }),
  },
  demo: (input) =>
    promptCards(input.prompt, {
      count: input.numOutputs,
      size: DEMO_SIZES[input.aspectRatio],
      title: 'Text to Pic',
      quality: input.outputQuality,
    }),
});
