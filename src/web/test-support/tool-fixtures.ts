// Helpers for the tool pages' tests: image files, choosing one, the server's answers, and a tool's checks.
import { fireEvent, screen } from '@testing-library/react';
import type { Profile } from '../../contract/accounts';
import { TOOLS, type ToolId } from '../../contract/tools';
import { type CheckContext, type CheckOutcome, firstFailingCheck } from '../features/tools/tool-rules';
import type { WebTool } from '../features/tools/web-tool';
import { PROFILE } from './fake-api';

/** A tiny file that claims to be an image (the page reads it; the fake server does not look). */
export function imageFile(name = 'photo.png', type = 'image/png', size = 64): File {
  return new File([new Uint8Array(size).fill(7)], name, { type });
}

/** Chooses files through the drop zone's file input. */
export function chooseFiles(...files: File[]): void {
  fireEvent.change(screen.getByTestId('image-input'), { target: { files } });
}

/** Chooses one image and waits for its preview. */
export async function chooseImage(file: File = imageFile()): Promise<void> {
  chooseFiles(file);
  await screen.findByRole('img', { name: `Your image: ${file.name}` });
}

/** A successful answer of an image tool (`demo`: a free preview, nothing taken). */
export const imagesAnswer = (output: string[] | string, balance: number, demo = false) => ({
  body: { success: true, output, jobId: 'job-1', balance, charged: demo ? 0 : 1, demo },
});

/** GET /api/tools naming what serves `id` and what it takes here (the contract's answer for one tool). */
export const toolsInfoAnswer = (id: ToolId, provider: string, price: number, freePreview = provider === 'demo') => ({
  body: { tools: [{ id, provider, demo: provider === 'demo', freePreview, price: freePreview ? 0 : price }] },
});

const served = (id: ToolId, provider: string, price: number, freePreview = provider === 'demo') => ({
  id,
  provider,
  demo: provider === 'demo',
  freePreview,
  price: freePreview ? 0 : price,
});

/**
 * GET /api/tools of a server on its default set-up (no Replicate token: the local engine where a tool
 * has one, else the labelled demo): the tools of `local` served by the local engine at the price
 * given ('preview': a free preview, as Background Swap's labelled backgrounds), every other tool by
 * the demo, a free preview. A test names the tools it reads.
 */
export const localServerTools = (local: Partial<Record<ToolId, number | 'preview'>>) => ({
  body: {
    tools: TOOLS.map((tool) => {
      const price = local[tool.id];
      if (price === undefined) return served(tool.id, 'demo', tool.cost);
      return price === 'preview' ? served(tool.id, 'local', tool.cost, true) : served(tool.id, 'local', price);
    }),
  },
});

/** GET /api/tools of a server where Replicate serves every tool: the spec's prices, no preview. */
export const REPLICATE_SERVER_TOOLS = {
  body: { tools: TOOLS.map((tool) => served(tool.id, 'replicate', tool.cost)) },
};

/** GET /api/tools of a server where the demo serves every tool (INFERENCE_PROVIDER=demo): all free previews. */
export const DEMO_SERVER_TOOLS = {
  body: { tools: TOOLS.map((tool) => served(tool.id, 'demo', tool.cost)) },
};

export const fileUrl = (n: number) => `/api/files/00000000-0000-4000-8000-00000000000${n}`;

/** A tool's submit checks against a signed-in, verified user with enough tokens, an image and a price of 1, unless told otherwise. */
export const checksOf =
  (tool: Pick<WebTool, 'submitChecks'>) =>
  (context: Partial<CheckContext>): CheckOutcome | null =>
    firstFailingCheck(tool.submitChecks, { profile: PROFILE, cost: 1, hasImage: true, ...context });

export const profileWith = (overrides: Partial<Profile> = {}): Profile => ({ ...PROFILE, ...overrides });
export const messageOutcome = (text: string): CheckOutcome => ({ kind: 'message', text });
export const REDIRECT_TO_TOKENS: CheckOutcome = { kind: 'redirect-to-tokens' };
