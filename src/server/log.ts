// A small structured logger: one JSON line per event on stdout (stderr for errors), which any
// log collector can read. Secrets must never be passed in `fields`.
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type Logger = {
  [L in Level]: (message: string, fields?: Record<string, unknown>) => void;
} & { child(fields: Record<string, unknown>): Logger };

function serializeError(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

export function createLogger(minLevel: Level = 'info', base: Record<string, unknown> = {}): Logger {
  const write = (level: Level, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < ORDER[minLevel]) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level, msg: message, ...base };
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
