// The process entry: `npm start` (web + worker), `npm start -- --web`, `npm start -- --worker`.
import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { isDatabaseConnectionError } from './db/connection-errors';
import { createLogger } from './log';
import { startSystem } from './system';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\nSee .env.example for every variable and its meaning.`);
      process.exitCode = 1; // nothing is running yet: the process ends by itself
      return;
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  // Losing the database for a moment must not kill the server: a statement nobody awaited that a
  // restart refuses (a driver's or a library's) is logged and the process carries on (jobs are
  // retried or expire and are refunded). Anything else is a bug: exit.
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseConnectionError(reason)) {
      logger.error('database unreachable; carrying on until it is back', { error: reason });
      return;
    }
    logger.error('unhandled rejection', { error: reason });
    endProcess(1);
  });
  // The engine process's entry beside this one: the bundle's (dist/server/engine-main.mjs, npm start)
  // or the source's (src/server/engine-main.ts, npm run dev).
  const engineEntry = new URL(`./engine-main${path.extname(new URL(import.meta.url).pathname)}`, import.meta.url);
  const system = await startSystem(config, logger, { engineEntry });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    await system.stop();
    endProcess(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/** Ends the process now: open handles (pools, timers) would otherwise keep a stopped server alive. */
const endProcess: (code: number) => never = process.exit.bind(process);

main().catch((error) => {
  console.error('Picture Palette failed to start:', error instanceof Error ? (error.stack ?? error.message) : error);
  endProcess(1);
});
