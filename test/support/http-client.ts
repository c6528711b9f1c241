// A browser-like client for in-process requests: keeps cookies, sends our Origin on every request,
// and comes from its own address (tests run with TRUST_PROXY_HOPS=1, so X-Forwarded-For counts).
import type { App } from '../../src/server/app';

let nextAddress = 1;

export type TestResponse<T = unknown> = { status: number; body: T; headers: Headers };

/**
 * One request to the in-process app, with only the headers given (as a program with an API key
 * calls): a body is sent as JSON, and the answer's body is parsed when it is JSON, else kept as text.
 */
export async function sendRequest<T = unknown>(
  app: App,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<TestResponse<T>> {
  const headers = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await app.request(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as T, headers: response.headers };
}

export class TestClient {
  private cookies = new Map<string, string>();
  readonly ip: string;

  constructor(
    private readonly app: App,
    private readonly origin: string,
    ip?: string,
  ) {
    const n = nextAddress++;
    this.ip = ip ?? `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  }

  async request<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { origin: this.origin, 'x-forwarded-for': this.ip, ...options.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    const answer = await sendRequest<T>(this.app, method, path, { body: options.body, headers });
    for (const line of answer.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /max-age=0/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** The raw response (for binary bodies), sent with this client's cookies. */
  fetchRaw(path: string) {
    return this.app.request(path, { headers: { cookie: this.cookieHeader(), 'x-forwarded-for': this.ip } });
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }

  post<T = unknown>(path: string, body: unknown = {}) {
    return this.request<T>('POST', path, { body });
  }

  signUp(email: string, password = 'correct horse 42') {
    return this.post<{ user?: { id: string } }>('/api/auth/sign-up/email', {
      email,
      password,
      name: email.split('@')[0],
    });
  }

  signIn(email: string, password = 'correct horse 42') {
    return this.post<{ user?: { id: string } }>('/api/auth/sign-in/email', { email, password });
  }
}
