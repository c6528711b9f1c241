// The demo provider: clearly labelled placeholders for tools that no real provider serves here, so
// every flow can be tried on a fresh machine. Each tool's placeholder is its folder's `demo`
// (tools/<tool-id>/index.ts, handed over in `tools`), drawn with demo-images.ts.
import type { InferenceProvider } from '../provider';
import { type ServedTools, servedToolFinder } from '../served-tool';

export function createDemoProvider(tools: ServedTools): InferenceProvider {
  const toolFor = servedToolFinder(tools);
  return {
    name: 'demo',
    supports: () => true,
    run: (input) => toolFor(input.tool).demo(input),
  };
}
