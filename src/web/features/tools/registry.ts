// Every tool's web module, in the contract's order. The router builds the tool routes from this list;
// the pages and the shared parts read a tool's behaviour from its module, never from its id.
import { inToolOrder, type ToolsWithoutModule } from '../../../contract/tools';
import { backgroundRemover } from './background-remover/tool';
import { backgroundSwap } from './background-swap/tool';
import { colorizer } from './colorizer/tool';
import { creativeUpscaler } from './creative-upscaler/tool';
import { fixAFace } from './fix-a-face/tool';
import { imageAnalyzer } from './image-analyzer/tool';
import { imageUpscaler } from './image-upscaler/tool';
import { metamorphose } from './metamorphose/tool';
import { textLab } from './text-lab/tool';
import { textToPic } from './text-to-pic/tool';
import type { WebTool } from './web-tool';

const MODULES = [
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

/** A tool of the contract without a module here does not compile: its id is named in the error. */
type Missing = ToolsWithoutModule<(typeof MODULES)[number]>;
const everyToolHasAModule: [Missing] extends [never] ? true : Missing = true;
void everyToolHasAModule;

export const WEB_TOOLS: readonly WebTool[] = inToolOrder<WebTool>(MODULES, 'web tools');
