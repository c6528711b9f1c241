// What the worker hands the provider is exactly what the call asked for: the job keeps the tool's
// typed input (images by reference to their input files), not a summary. Metamorphose used to lose
// numOutputs and outputQuality on the way through the queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ToolId, toolById } from '../../src/contract/tools';
import { prepareTool } from '../../src/server/tools/definitions';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, verifiedUser } from '../support/tool-fixtures';

const provider = instantProvider();
let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend({ inference: routerWith(provider) });
});
afterAll(() => backend.stop());

async function calls(): Promise<[ToolId, Record<string, unknown>][]> {
  const png = await pngBytes(40, 30);
  return [
    ['metamorphose', { prompt: 'as an astronaut', main_face_image: png.toString('base64'), width: 768, height: 1344 }],
    ['text-to-pic', { prompt: 'a fox', aspectRatio: '9:16', numOutputs: 3, quality: 'low' }],
    ['background-swap', { prompt: 'on a beach', image: png.toString('base64'), num_outputs: 2 }],
    ['image-upscaler', { image: dataUrl(png), scale: 4 }],
    ['text-lab', { prompt: 'HELLO', aspectRatio: '16:9', textAssist: 'On' }],
  ];
}

describe('the input a job carries to its provider', () => {
  it('is every field of the call, images included, for each tool', async () => {
    const { client } = await verifiedUser(backend, 500);
    for (const [tool, body] of await calls()) {
      provider.calls.length = 0;
      const answer = await client.post(`/api${toolById(tool).apiPath}`, body);
      expect(answer.status, tool).toBe(200);
      expect(provider.calls, tool).toHaveLength(1);
      expect(provider.calls[0], tool).toEqual(prepareTool(tool, body).input);
    }
  });

  it('keeps Metamorphose’s count and output quality (they were dropped by the summary)', async () => {
    const { client } = await verifiedUser(backend, 100);
    provider.calls.length = 0;
    const [, body] = (await calls())[0] as [ToolId, Record<string, unknown>];
    expect((await client.post('/api/metamorphose-image', body)).status).toBe(200);
    expect(provider.calls[0]).toMatchObject({
      tool: 'metamorphose',
      prompt: 'as an astronaut',
      width: 768,
      height: 1344,
      numOutputs: 1,
      outputQuality: 33,
      image: { mime: 'image/png', width: 40, height: 30 },
    });
  });
});
