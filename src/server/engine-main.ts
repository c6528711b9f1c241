// The local engine process's entry (system.ts hands it to engine-host.ts, which forks it; decision
// 040): the engine loop of inference/local/engine-host/engine-process.ts with the server's tools.
// An entry of its own, like main.ts, because only an entry joins inference/ and tools/: the engines
// never import a tool.
import { runEngineProcess } from './inference/local/engine-host/engine-process';
import { SERVER_TOOLS } from './tools/registry';

runEngineProcess(SERVER_TOOLS);
