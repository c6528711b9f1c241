// Creations as GET /api/creations answers them, for the web tests.
import type { Creation, CreationImage } from '../../contract/creations';
import type { ToolId } from '../../contract/tools';
import { WEB_TOOLS } from '../features/tools/registry';

const fileId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const storedImage = (n: number): CreationImage => ({
  id: fileId(n),
  url: `/api/files/${fileId(n)}`,
  thumbnailUrl: `/api/files/${fileId(n)}?size=thumb`,
  width: 640,
  height: 480,
});

/**
 * The tool of a creation or batch unless a test names another: the one whose result is a cut-out (the
 * Background Remover: one image in, one out, a batch tool), as the tests that use the default read it.
 */
export const EXAMPLE_TOOL = (() => {
  const tool = WEB_TOOLS.find(
    (candidate) => candidate.result.kind === 'images' && candidate.result.compare === 'cutout',
  );
  if (!tool) throw new Error('no tool answers a cut-out');
  return tool;
})();

/** A succeeded job of `tool` with input image 1 and output image 2, unless told otherwise. */
export function creation(overrides: Partial<Creation> & { tool?: ToolId } = {}): Creation {
  const outputs = overrides.outputs ?? [storedImage(2)];
  return {
    id: 'job-7',
    tool: EXAMPLE_TOOL.id,
    status: 'succeeded',
    cost: EXAMPLE_TOOL.cost,
    createdAt: '2026-11-23T18:00:00.000Z',
    finishedAt: '2026-11-23T18:00:09.000Z',
    error: null,
    output: outputs.map((image) => image.url),
    keywords: null,
    colors: null,
    charged: EXAMPLE_TOOL.cost,
    refunded: 0,
    demo: false,
    settings: {},
    inputs: [storedImage(1)],
    outputs,
    shareUrl: null,
    batch: null,
    versions: [],
    ...overrides,
  };
}

export const creationList = (...creations: Creation[]) => ({
  body: { creations, next: null },
});
