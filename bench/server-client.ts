// The benches' signed-in client of a real server (bench/batch.ts, bench/colour.ts): JSON requests with
// the session cookie and the server's origin, a 429 waited out as the page does, and files as bytes;
// and the server they talk to, on a fresh data dir, with a verified user who has the tokens asked for.
// With BENCH_SERVER_URL set, the server is one already running with LOCAL_ENGINE_ENV (bench/benches.test.ts
// starts one for both benches: one server start and one set of model loads instead of two).

import { API_USER_PASSWORD, verifiedApiUser } from '../e2e/support/mail';
import { cookieHeaderFrom, type ServerProcess, startServerProcess } from '../e2e/support/server';
import { adminCli } from '../e2e/support/visitors';
import { SIGNUP_TOKENS } from '../src/contract/accounts';
import type { ToolsInfo } from '../src/contract/tool-responses';
import { ensurePgliteSeed, seedDataDir } from '../test/support/pglite-seed';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server the benches call tools on: the local engine, and no per-account rate limit to wait out. */
export const LOCAL_ENGINE_ENV = {
  INFERENCE_PROVIDER: 'local',
  LOG_LEVEL: 'warn',
  TOOL_CALLS_PER_MINUTE: '100000',
};

/** A server already running with LOCAL_ENGINE_ENV, for the benches to share (else each starts its own). */
export const SHARED_SERVER = 'BENCH_SERVER_URL';

/** Starts the server of LOCAL_ENGINE_ENV on `dataDir` (seeded from the migrated template). */
export async function startLocalEngineServer(dataDir: string): Promise<ServerProcess> {
  await ensurePgliteSeed();
  seedDataDir(dataDir);
  return startServerProcess({ dataDir, env: LOCAL_ENGINE_ENV });
}

export type ServerClient = {
  json<T>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }>;
  bytes(url: string): Promise<Buffer>;
};

export function serverClient(base: string, cookie: string): ServerClient {
  return {
    async json<T>(method: string, url: string, body?: unknown) {
      for (;;) {
        const answer = await fetch(`${base}${url}`, {
          method,
          headers: { cookie, origin: base, accept: 'application/json', 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (answer.status === 429) {
          await sleep(1000 * Number(answer.headers.get('retry-after') ?? 1));
          continue;
        }
        const text = await answer.text();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text for the failure's message
        }
        return { status: answer.status, body: parsed as T };
      }
    },
    async bytes(url: string) {
      const answer = await fetch(`${base}${url}`, { headers: { cookie } });
      if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}`);
      return Buffer.from(await answer.arrayBuffer());
    },
  };
}

/**
 * Starts the server on `dataDir` (or takes the shared one), signs a verified user up and in;
 * `tokensFor` says how many tokens the bench's calls take at the prices this server serves. Past a
 * new account's 20, support's admin tool grants them (noted `bench:<label>`) while the server is
 * stopped: the embedded database is the server's alone. `holder.server` is always the running one of
 * the bench's own (none when shared).
 */
export async function serverWithUser(
  dataDir: string,
  holder: { server?: ServerProcess },
  options: { label: string; tokensFor: (tools: ToolsInfo) => number },
): Promise<{ api: ServerClient; tools: ToolsInfo }> {
  const shared = process.env[SHARED_SERVER];
  if (!shared) holder.server = await startLocalEngineServer(dataDir);
  const url = shared ?? (holder.server as ServerProcess).url;
  const email = `${options.label}.${Date.now()}@example.com`;
  await verifiedApiUser(url, email);
  const tools = (await (await fetch(`${url}/api/tools`)).json()) as ToolsInfo;
  const tokens = options.tokensFor(tools);
  if (tokens > SIGNUP_TOKENS) {
    // Support's grant needs the embedded database to itself: only a server of the bench's own.
    if (!holder.server)
      throw new Error(`${tokens} tokens are more than a new account's ${SIGNUP_TOKENS}: unset ${SHARED_SERVER}`);
    await holder.server.stop();
    adminCli(dataDir, 'grant', email, String(tokens), `bench:${options.label}`);
    holder.server = await startServerProcess({ dataDir, env: LOCAL_ENGINE_ENV });
  }
  const base = holder.server?.url ?? url;
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: API_USER_PASSWORD }),
  });
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`);
  return { api: serverClient(base, cookieHeaderFrom(signIn)), tools };
}
