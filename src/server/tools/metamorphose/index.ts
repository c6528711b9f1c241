// Metamorphose: a reference face in a new scene (flux-pulid on Replicate).
import { type AspectRatio, METAMORPHOSE_SIZES } from '../../../contract/tools';
import { request } from '../../../contract/tools/metamorphose/request';
import { decodeImageField, InputError } from '../../images/image-input';
import type { ImageInput } from '../../images/image-types';
import { uploadOnCards } from '../../inference/demo/demo-images';
import { parseRequest, type ResultFileFields, resultFileFields, UPLOAD_5MB, withShapeLimits } from '../request-checks';
import { defineServerTool } from '../server-tool';

export type MetamorphoseInput = {
  tool: 'metamorphose';
  prompt: string;
  image: ImageInput;
  width: number;
  height: number;
  numOutputs: 1;
  /** The file's quality: the spec's 33 (what the model is asked for), unless the call asks another. */
  outputQuality: number;
} & ResultFileFields;

/** The spec's width x height per aspect ratio: anything else is refused. */
function aspectRatioOf(width: number, height: number): AspectRatio {
  const match = Object.entries(METAMORPHOSE_SIZES).find(([, size]) => size.width === width && size.height === height);
  if (!match) {
    const sizes = Object.values(METAMORPHOSE_SIZES).map((s) => `${s.width}x${s.height}`);
    throw new InputError('width', `width and height must be one of ${sizes.join(', ')}`);
  }
  return match[0] as AspectRatio;
}

export const metamorphose = defineServerTool<MetamorphoseInput>({
  id: 'metamorphose',
  request,
  prepare(body) {
    const b = parseRequest(request, body);
    aspectRatioOf(b.width, b.height);
    const image = decodeImageField('main_face_image', b.main_face_image, withShapeLimits('metamorphose', UPLOAD_5MB));
    return {
      input: {
        tool: 'metamorphose',
        prompt: b.prompt,
        image,
        width: b.width,
        height: b.height,
        numOutputs: 1,
        ...resultFileFields('metamorphose', b, image),
        outputQuality: b.outputQuality ?? 33,
      },
      units: 1,
      images: [image],
      imageField: 'main_face_image',
    };
  },
  replicate: {
    model: 'bytedance/flux-pulid',
    // Used by 10+ public projects calling replicate.run('bytedance/flux-pulid:8baa7ef2…').
    version: '8baa7ef2255075b46f4d91cd238c21d31181b3e6a864463f967960bb0112525b',
    output: 'list',
    buildInput: (r, image) => ({
      main_face_image: image,
      prompt: r.prompt,
      width: r.width,
      height: r.height,
      num_outputs: 1,
      output_quality: 33,
      output_format: 'webp',
    }),
  },
  demo: (input) =>
    uploadOnCards(input.image, input.prompt, {
      count: 1,
      size: { width: input.width, height: input.height },
      title: 'Metamorphose',
      quality: input.outputQuality,
    }),
});
