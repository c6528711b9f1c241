// THE list of tools, in the spec's menu order: the one file of the contract that names them. Each
// tool's facts are its definition (contract/tools/<tool-id>/definition.ts, typed by
// tool-definition.ts); tools.ts derives the ids, types and tables from this list, and the router,
// the menu, the API routes and both sides' registries follow from it. A test adds a tool by
// replacing TOOL_LIST alone (test/integration/throwaway-tool.test.ts). Adding a tool:
// docs/adding-a-tool.md.
import type { ToolDefinition } from './tool-definition';
import { backgroundRemover } from './tools/background-remover/definition';
import { backgroundSwap } from './tools/background-swap/definition';
import { colorizer } from './tools/colorizer/definition';
import { creativeUpscaler } from './tools/creative-upscaler/definition';
import { fixAFace } from './tools/fix-a-face/definition';
import { imageAnalyzer } from './tools/image-analyzer/definition';
import { imageUpscaler } from './tools/image-upscaler/definition';
import { metamorphose } from './tools/metamorphose/definition';
import { textLab } from './tools/text-lab/definition';
import { textToPic } from './tools/text-to-pic/definition';

export const TOOL_LIST = [
  textToPic,
  metamorphose,
  colorizer,
  backgroundRemover,
  creativeUpscaler,
  fixAFace,
  textLab,
  backgroundSwap,
  imageUpscaler,
  imageAnalyzer,
] as const satisfies readonly ToolDefinition[];
