// What a local engine is: a function of its own narrow parameters (the image, a scale, a prompt...),
// loaded on its tool's first job (the model stays loaded), then run per job. Each engine in this
// folder declares the parameters it takes; the tool's module (tools/<tool-id>/index.ts) hands it
// them from its own input.
import type { ToolResult } from '../provider';

/**
 * Configuration of the local engines (config.ts `local`); modelDir: where converted models are
 * cached (DATA_DIR/models; unset: converted in memory at each start).
 */
export type LocalEngineOptions = { backgroundModel: 'small' | 'medium'; modelDir?: string };

/** An engine: runs one job on `params`, rejects with a ProviderError (or any error) when it fails. Honours `signal`. */
export type LocalEngine<P> = (params: P, signal: AbortSignal) => Promise<ToolResult>;

/**
 * A refusal the engine can foresee (no face, a face too small), checked before the charge:
 * resolves when the engine can serve the input, rejects with a ProviderError whose userMessage says
 * why not and what to try.
 */
export type LocalPrecheck<P> = (params: P, signal: AbortSignal) => Promise<void>;
