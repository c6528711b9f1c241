// The local engine process's entry (system.ts hands it to engine-host.ts, which forks it; decision
// 040): the engine loop of inference/local/engine-host/engine-process.ts with the server's tools.
// An entry of its own, like main.ts, because only an entry joins inference/ and tools/: the engines
// never import a tool. With ENGINE_METRICS_PORT set (handed over in its environment: system.ts) it
// serves its own GET /metrics: its CPU and memory, and each model run's seconds (decision 079).
import { runEngineProcess } from './inference/local/engine-host/engine-process';
import { createLogger } from './log';
import { createEngineMetrics } from './observability/metrics';
import { ENGINE_METRICS_ENV, type EngineMetricsSetting, listenForMetrics } from './observability/metrics-listener';
import { SERVER_TOOLS } from './tools/registry';

const setting = process.env[ENGINE_METRICS_ENV];
const metrics = setting ? createEngineMetrics() : null;
runEngineProcess(SERVER_TOOLS, { onRun: metrics ? (tool, seconds) => metrics.modelRun(tool, seconds) : undefined });
if (setting && metrics) {
  const logger = createLogger('info', { process: 'engine' });
  // A port taken (another engine on this machine) costs the metrics, never the runs.
  listenForMetrics(metrics, { ...(JSON.parse(setting) as EngineMetricsSetting), logger, process: 'engine' }).catch(
    (error) => logger.error('the engine process cannot serve its metrics', { error }),
  );
}
