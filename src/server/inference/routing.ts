// Which provider serves which tool: the configured default (Replicate with a token, else the
// local engine), per-tool overrides, and a fallback to the labelled demo provider for any tool the
// chosen provider cannot serve. Reported by /api/health and /api/tools.
import { TOOLS, type ToolId } from '../../contract/tools';
import type { InferenceProvider, ProviderName } from './provider';

export type InferencePreference = { default: ProviderName; perTool: Partial<Record<ToolId, ProviderName>> };

export type InferenceRouter = {
  providerFor(tool: ToolId): InferenceProvider;
  /**
   * The provider a job was queued for (its recorded name), so that a job keeps its provider when
   * the routing changes between queueing and running (a restart with other settings, another
   * process); the current choice when that provider is not configured here.
   */
  providerForJob(tool: ToolId, recorded: string): InferenceProvider;
  /** Tool id -> provider name, for health and the web's demo notice. */
  describe(): Record<ToolId, ProviderName>;
};

export function createInferenceRouter(
  preference: InferencePreference,
  providers: Partial<Record<ProviderName, InferenceProvider>>,
  demo: InferenceProvider,
): InferenceRouter {
  const chosen = new Map<ToolId, InferenceProvider>();
  for (const { id } of TOOLS) {
    const preferred = preference.perTool[id] ?? preference.default;
    // Asking for the demo gets the demo (tests and screenshots); otherwise the preferred provider,
    // then the local engine, then the demo for a tool neither can serve.
    const order: ProviderName[] = preferred === 'demo' ? [] : [preferred, 'local'];
    const provider = order.map((name) => providers[name]).find((p) => p?.supports(id));
    chosen.set(id, provider ?? demo);
  }
  const all = [...Object.values(providers), demo].filter((p): p is InferenceProvider => p !== undefined);
  const providerFor = (tool: ToolId) => chosen.get(tool) ?? demo;
  return {
    providerFor,
    providerForJob: (tool, recorded) => all.find((p) => p.name === recorded && p.supports(tool)) ?? providerFor(tool),
    describe: () => Object.fromEntries([...chosen].map(([tool, p]) => [tool, p.name])) as Record<ToolId, ProviderName>,
  };
}
