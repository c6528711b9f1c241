// The demo provider: clearly labelled placeholders for tools that no real provider serves here, so
// every flow can be tried on a fresh machine. Each tool's placeholder is its folder's `demo`
// (tools/<tool-id>/index.ts), drawn with demo-images.ts.
import { serverTool } from '../../tools/registry';
import type { InferenceProvider, ToolInput } from '../provider';

export function createDemoProvider(): InferenceProvider {
  return {
    name: 'demo',
    supports: () => true,
    run: (input: ToolInput) => serverTool(input.tool).demo(input as never),
  };
}
