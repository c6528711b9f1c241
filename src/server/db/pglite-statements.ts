import {
  type ParserOptions,
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
} from '@electric-sql/pglite';

/**
 * Named (prepared) statements for PGlite, whose own `query` parses and plans every statement anew
 * (an unnamed statement, six trips into the wasm backend). On a tool call's statements planning
 * was 2-5x their execution (EXPLAIN ANALYZE: the take 1.1-1.3 ms planned, 0.2 ms run), and PGlite
 * is one connection, so every call waited for every other call's planning (decision 030).
 *
 * `nameStatementsOf` makes the instance's top-level `query` with parameters parse each text once
 * under a name and afterwards send one bind + execute + sync. PostgreSQL then plans the statement
 * once it has seen it five times (a generic plan), as on the pool's named statements (client.ts).
 * What it leaves to PGlite's own path: texts without parameters (the simple protocol's many
 * statements), calls with `paramTypes` or a blob, and everything inside `transaction()` (its
 * `tx.query` runs under the transaction's lock, which this path takes itself). Texts beyond
 * `max` evict the least recently used statement, so texts built with inlined values cannot grow
 * the backend's memory without bound.
 */
export function nameStatementsOf(pglite: PGlite, { max = 200 } = {}): void {
  const unnamedQuery = pglite.query.bind(pglite);
  const statements = new Map<string, Statement>(); // in order of last use: the first is evicted
  let sequence = 0;
  const internals = pglite as unknown as PGliteInternals;

  async function describe(text: string): Promise<Statement> {
    const evicted = statements.size >= max ? statements.entries().next().value : undefined;
    if (evicted) statements.delete(evicted[0]);
    const name = `pp_named_${++sequence}`;
    const replies = await pglite.execProtocolStream(
      joined([
        ...(evicted ? [protocol.serialize.close({ type: 'S', name: evicted[1].name })] : []),
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    return { name, parameterTypes: parse.parseDescribeStatementResults(replies) };
  }

  // PGlite merges a caller's parsers into its own by spreading all ~320 of them, per statement
  // (80 µs; drizzle passes some with every query): here the caller's few sit over PGlite's instead,
  // made once for each set a caller passes again and again (db/client.ts's executePrepared).
  type Parsers = PGlite['parsers'];
  const merged = new WeakMap<ParserOptions, Parsers>();
  function parsersFor(own: ParserOptions | undefined): Parsers {
    if (!own) return pglite.parsers;
    const known = merged.get(own);
    if (known) return known;
    const parsers = Object.assign(Object.create(pglite.parsers), own) as Parsers;
    merged.set(own, parsers);
    return parsers;
  }

  async function run(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results> {
    let statement = statements.get(text);
    if (statement) statements.delete(text);
    statement ??= await describe(text);
    statements.set(text, statement); // at the end: used last
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.parameterTypes[i] ?? 0;
      const serialize = options?.serializers?.[type] ?? pglite.serializers[type];
      return serialize ? serialize(value) : String(value);
    });
    const replies = await pglite.execProtocolStream(
      joined([
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    await pglite.syncToFs();
    return parse.parseResults(replies, parsersFor(options?.parsers), { rowMode: options?.rowMode })[0] as Results;
  }

  pglite.query = (async <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    if (!params?.length || options?.paramTypes || options?.blob) return unnamedQuery<T>(text, params, options);
    await internals._checkReady();
    return internals._runExclusiveTransaction(() =>
      internals._runExclusiveQuery(async () => {
        try {
          return (await run(text, params, options)) as Results<T>;
        } catch (error) {
          // A statement whose tables changed shape since it was parsed must be parsed again.
          if ((error as { code?: string }).code !== '0A000') throw withQuery(error, text, params, options);
          await forget(text);
          try {
            return (await run(text, params, options)) as Results<T>;
          } catch (again) {
            throw withQuery(again, text, params, options);
          }
        }
      }),
    );
  }) as PGlite['query'];

  async function forget(text: string) {
    const statement = statements.get(text);
    if (!statement) return;
    statements.delete(text);
    await pglite.execProtocolStream(
      joined([protocol.serialize.close({ type: 'S', name: statement.name }), protocol.serialize.sync()]),
      { syncToFs: false },
    );
  }
}

type Statement = { name: string; parameterTypes: number[] };

/** PGlite's own locks and readiness check, which its `query` takes (base.ts): ours must too. */
type PGliteInternals = {
  _checkReady(): Promise<void>;
  _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(work: () => Promise<T>): Promise<T>;
};

/** Several protocol messages as one buffer: the backend runs them in one trip. */
function joined(messages: Uint8Array[]): Uint8Array {
  const buffer = new Uint8Array(messages.reduce((size, message) => size + message.length, 0));
  let offset = 0;
  for (const message of messages) {
    buffer.set(message, offset);
    offset += message.length;
  }
  return buffer;
}

/** As PGlite's own errors: the statement and its values ride on the error (errors.ts there). */
function withQuery(error: unknown, query: string, params: unknown[], queryOptions: QueryOptions | undefined) {
  if (error instanceof Error && 'code' in error) Object.assign(error, { query, params, queryOptions });
  return error;
}
