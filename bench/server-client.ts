// The benches' signed-in client of a real server (bench/batch.ts, bench/colour.ts): JSON requests with
// the session cookie and the server's origin, a 429 waited out as the page does, and files as bytes.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
