// Tiny JSON helpers over fetch for same-origin API calls (cookie session).
// A network failure ("Failed to fetch") is not an HTTP answer: it rejects with the TypeError fetch
// throws, and each caller decides what to show.

export type ApiResult<T> = {
  ok: boolean;
  status: number;
  /** The parsed JSON body, or null when there is none (or it is not JSON). */
  data: T | null;
};

/** Error bodies: {error} from our endpoints, {code, message} from better-auth. */
export type ApiErrorBody = { error?: string; code?: string; message?: string; retryAfterSeconds?: number };

async function request<T>(path: string, init: RequestInit): Promise<ApiResult<T>> {
  const response = await fetch(path, {
    credentials: 'same-origin',
    ...init,
    headers: { Accept: 'application/json', ...init.headers },
  });
  let data: T | null = null;
  const text = await response.text().catch(() => '');
  if (text) {
    try {
      data = JSON.parse(text) as T;
    } catch {
      data = null;
    }
  }
  return { ok: response.ok, status: response.status, data };
}

export function getJson<T>(path: string, init: RequestInit = {}): Promise<ApiResult<T>> {
  return request<T>(path, { ...init, method: 'GET' });
}

export function postJson<T>(path: string, body: unknown = {}, init: RequestInit = {}): Promise<ApiResult<T>> {
  return request<T>(path, {
    ...init,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...init.headers },
    body: JSON.stringify(body),
  });
}

/** A multipart form (the browser sets its Content-Type and boundary): an image as a file part. */
export function postForm<T>(path: string, form: FormData, init: RequestInit = {}): Promise<ApiResult<T>> {
  return request<T>(path, { ...init, method: 'POST', body: form });
}

export function deleteJson<T>(path: string, body?: unknown, init: RequestInit = {}): Promise<ApiResult<T>> {
  return request<T>(path, {
    ...init,
    method: 'DELETE',
    ...(body === undefined
      ? {}
      : { headers: { 'Content-Type': 'application/json', ...init.headers }, body: JSON.stringify(body) }),
  });
}

/** Reads a field of an error body without trusting its shape. */
function field(data: unknown, key: keyof ApiErrorBody): unknown {
  return data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[key] : undefined;
}

/** The human message of an error body: `error` from our endpoints, `message` from better-auth. */
export function errorMessage(data: unknown): string | null {
  const error = field(data, 'error');
  if (typeof error === 'string' && error) return error;
  const message = field(data, 'message');
  return typeof message === 'string' && message ? message : null;
}

/** better-auth's machine-readable error code, e.g. 'INVALID_EMAIL_OR_PASSWORD'. */
export function errorCode(data: unknown): string | null {
  const code = field(data, 'code');
  return typeof code === 'string' && code ? code : null;
}

/** `retryAfterSeconds` of a cooldown answer, when it is a usable number. */
export function retryAfterSeconds(data: unknown): number | null {
  const seconds = field(data, 'retryAfterSeconds');
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null;
}
