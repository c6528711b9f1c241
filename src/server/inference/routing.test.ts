import { describe, expect, it } from 'vitest';
import type { ToolId } from '../../contract/tools';
import type { InferenceProvider, ProviderName } from './provider';
import { createInferenceRouter } from './routing';

const provider = (name: ProviderName, tools: ToolId[] | 'all'): InferenceProvider => ({
  name,
  supports: (tool) => tools === 'all' || tools.includes(tool),
  run: async () => ({ kind: 'images', images: [] }),
});

const replicate = provider('replicate', 'all');
const local = provider('local', ['image-upscaler', 'background-remover']);
const demo = provider('demo', 'all');

describe('inference routing', () => {
  it('prefers the configured provider, then the local engine, then the demo', () => {
    const router = createInferenceRouter(
      { default: 'local', perTool: { colorizer: 'replicate' } },
      { replicate, local },
      demo,
    );
    expect(router.providerFor('image-upscaler')).toBe(local);
    expect(router.providerFor('colorizer')).toBe(replicate);
    expect(router.providerFor('text-to-pic')).toBe(demo);
    const forced = createInferenceRouter({ default: 'demo', perTool: {} }, { replicate, local }, demo);
    expect(forced.providerFor('image-upscaler')).toBe(demo);
  });

  it('gives a queued job the provider it was queued for, even after the routing changed', () => {
    // Queued on Replicate; the server now routes the upscaler to the local engine.
    const now = createInferenceRouter({ default: 'local', perTool: {} }, { replicate, local }, demo);
    expect(now.providerForJob('image-upscaler', 'replicate')).toBe(replicate);
    expect(now.providerForJob('image-upscaler', 'demo')).toBe(demo);
    // A provider that is not configured here any more, or cannot serve the tool: today's choice.
    const withoutReplicate = createInferenceRouter({ default: 'local', perTool: {} }, { local }, demo);
    expect(withoutReplicate.providerForJob('image-upscaler', 'replicate')).toBe(local);
    expect(now.providerForJob('text-to-pic', 'local')).toBe(demo);
  });
});
