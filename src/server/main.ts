// The process entry: `npm start` (web + worker), `npm start -- --web`, `npm start -- --worker`.
import { ConfigError, loadConfig } from './config';
import { createLogger } from './log';
import { startSystem } from './system';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\nSee .env.example for every variable and its meaning.`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const system = await startSystem(config, logger);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    await system.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error('Picture Palette failed to start:', error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
