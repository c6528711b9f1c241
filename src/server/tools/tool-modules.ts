// THE list of the server's tool modules (tools/<tool-id>/index.ts, one ServerTool each): the one
// server file that names the tools. registry.ts derives the registry, its order (the contract's) and
// the input types from it; a test adds a tool by replacing TOOL_MODULES alone
// (test/integration/throwaway-tool.test.ts). Adding a tool: docs/adding-a-tool.md.
import { backgroundRemover } from './background-remover';
import { backgroundSwap } from './background-swap';
import { colorizer } from './colorizer';
import { creativeUpscaler } from './creative-upscaler';
import { fixAFace } from './fix-a-face';
import { imageAnalyzer } from './image-analyzer';
import { imageUpscaler } from './image-upscaler';
import { metamorphose } from './metamorphose';
import { textLab } from './text-lab';
import { textToPic } from './text-to-pic';

export const TOOL_MODULES = [
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
] as const;
