// Text Lab: posters and cards with legible lettering (ideogram-v2-turbo on Replicate).
import type { AspectRatio, TextAssist } from '../../../contract/tools';
import { request } from '../../../contract/tools/text-lab/request';
import { DEMO_SIZES, promptCards } from '../../inference/demo/demo-images';
import { parseRequest, type ResultFileFields, resultFileFields } from '../request-checks';
import { defineServerTool } from '../server-tool';

export type TextLabInput = {
  tool: 'text-lab';
  prompt: string;
  aspectRatio: AspectRatio;
  textAssist: TextAssist;
} & ResultFileFields;

export const textLab = defineServerTool<TextLabInput>({
  id: 'text-lab',
  request,
  prepare(body) {
    const b = parseRequest(request, body);
    const input: TextLabInput = {
      tool: 'text-lab',
      prompt: b.prompt,
      aspectRatio: b.aspectRatio,
      textAssist: b.textAssist,
      ...resultFileFields('text-lab', b),
    };
    return {
      input,
      units: 1,
      images: [],
    };
  },
  replicate: {
    model: 'ideogram-ai/ideogram-v2-turbo',
    output: 'single',
    buildInput: (r) => ({ prompt: r.prompt, aspect_ratio: r.aspectRatio, magic_prompt_option: r.textAssist }),
  },
  demo: (input) =>
    promptCards(input.prompt, {
      count: 1,
      size: DEMO_SIZES[input.aspectRatio],
      title: `Text Lab, Text Assist ${input.textAssist}`,
      quality: 80,
    }),
});
