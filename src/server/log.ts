// A small structured logger: one JSON line per event on stdout (stderr for errors), which any
// log collector can read. Secrets must never be passed in `fields`.
import { AsyncLocalStorage } from 'node:async_hooks';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type Logger = {
  [L in Level]: (message: string, fields?: Record<string, unknown>) => void;
} & { child(fields: Record<string, unknown>): Logger };

/** Longest text logged from one field: user text (prompts, names) must never reach the log in full. */
export const MAX_LOGGED_TEXT = 300;

/**
 * Failed queries carry their parameters (a prompt, a name) in the message and the stack: they are
 * cut out, and any long text is shortened, so the log never holds what a user wrote.
 */
function redact(text: string): string {
  const withoutParams = text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, '\nparams: (not logged)');
  if (withoutParams.length <= MAX_LOGGED_TEXT) return withoutParams;
  return `${withoutParams.slice(0, MAX_LOGGED_TEXT)}… (${withoutParams.length - MAX_LOGGED_TEXT} more characters not logged)`;
}

function serializeError(value: unknown): unknown {
  if (value instanceof Error) {
    const cause = value.cause === undefined ? {} : { cause: serializeError(value.cause) };
    return {
      name: value.name,
      message: redact(value.message),
      stack: value.stack && redactStack(value.stack),
      ...cause,
    };
  }
  if (typeof value === 'string') return redact(value);
  return value;
}

/** A stack starts with the message: redact that, keep the frames whole (they are ours). */
function redactStack(stack: string): string {
  const firstFrame = stack.search(/\n\s+at /);
  return firstFrame < 0 ? redact(stack) : `${redact(stack.slice(0, firstFrame))}${stack.slice(firstFrame)}`;
}

/** Fields every line logged within a unit of work carries, whichever logger writes it (a request's id). */
const scopedFields = new AsyncLocalStorage<Record<string, unknown>>();

/**
 * Runs `work` with `fields` added to every line logged while it runs, its awaited calls included
 * (observability/request-id.ts: each request's id), so no module has to pass them along.
 */
export function withLogFields<T>(fields: Record<string, unknown>, work: () => T): T {
  return scopedFields.run({ ...scopedFields.getStore(), ...fields }, work);
}

/** The fields withLogFields gives the work running now ({} outside any). */
export function scopedLogFields(): Record<string, unknown> {
  return scopedFields.getStore() ?? {};
}

export function createLogger(minLevel: Level = 'info', base: Record<string, unknown> = {}): Logger {
  const write = (level: Level, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < ORDER[minLevel]) return;
    const entry: Record<string, unknown> = {
      time: new Date().toISOString(),
      level,
      msg: message,
      ...scopedFields.getStore(),
      ...base,
    };
    for (const [key, value] of Object.entries(fields ?? {})) entry[key] = serializeError(value);
    const line = `${JSON.stringify(entry)}\n`;
    if (level === 'error') process.stderr.write(line);
    else process.stdout.write(line);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(minLevel, { ...base, ...fields }),
  };
}

/** For tests: drops everything below `error`. */
export const quietLogger = (): Logger => createLogger('error');
