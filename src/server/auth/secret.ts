// The key that signs sessions and verification links. Production and PostgreSQL deployments set
// BETTER_AUTH_SECRET (config refuses to start without it); the embedded default generates one on
// first start and keeps it in DATA_DIR, so `npm start` needs no configuration and sessions
// survive restarts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function resolveAuthSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64');
  // 'wx' fails if another start wrote it first; then that one wins.
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}
