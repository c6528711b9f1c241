// Every tool's web module, in the contract's order. The router builds the tool routes from this list;
// the pages and the shared parts read a tool's behaviour from its module, never from its id.
import { inToolOrder, type ToolId, type ToolsWithoutModule } from '../../../contract/tools';
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
import type { WebTool, WebToolWithPage } from './web-tool';

/** A tool's module with its page's loader (the page imports tool.ts, so tool.ts cannot load it). */
function withPage<Id extends ToolId>(
  tool: WebTool<Id>,
  loadPage: WebToolWithPage<Id>['loadPage'],
): WebToolWithPage<Id> {
  return { ...tool, loadPage };
}

const MODULES = [
  withPage(textToPic, () => import('./text-to-pic/TextToPicPage').then((m) => m.TextToPicPage)),
  withPage(metamorphose, () => import('./metamorphose/MetamorphosePage').then((m) => m.MetamorphosePage)),
  withPage(colorizer, () => import('./colorizer/ColorizerPage').then((m) => m.ColorizerPage)),
  withPage(backgroundRemover, () =>
    import('./background-remover/BackgroundRemoverPage').then((m) => m.BackgroundRemoverPage),
  ),
  withPage(creativeUpscaler, () =>
    import('./creative-upscaler/CreativeUpscalerPage').then((m) => m.CreativeUpscalerPage),
  ),
  withPage(fixAFace, () => import('./fix-a-face/FixAFacePage').then((m) => m.FixAFacePage)),
  withPage(textLab, () => import('./text-lab/TextLabPage').then((m) => m.TextLabPage)),
  withPage(backgroundSwap, () => import('./background-swap/BackgroundSwapPage').then((m) => m.BackgroundSwapPage)),
  withPage(imageUpscaler, () => import('./image-upscaler/ImageUpscalerPage').then((m) => m.ImageUpscalerPage)),
  withPage(imageAnalyzer, () => import('./image-analyzer/ImageAnalyzerPage').then((m) => m.ImageAnalyzerPage)),
] as const;

/** A tool of the contract without a module here does not compile: its id is named in the error. */
type Missing = ToolsWithoutModule<(typeof MODULES)[number]>;
const everyToolHasAModule: [Missing] extends [never] ? true : Missing = true;
void everyToolHasAModule;

export const WEB_TOOLS: readonly WebToolWithPage[] = inToolOrder<WebToolWithPage>(MODULES, 'web tools');
