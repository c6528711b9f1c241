import {
  type ParserOptions,
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
} from '@electric-sql/pglite';

/**
 * Named (prepared) statements on PGlite through its public API only (decision 046). PGlite's own
 * `query` sends every statement unnamed, so PostgreSQL parses and plans it anew on every call; on a
 * tool call's CTEs planning costs more than running them (decision 030), and PGlite is one
 * connection, so every call waits for every other call's planning.
 *
 * `query(text, params)` parses each text once under a name and afterwards sends one bind + describe
 * + execute + sync through `execProtocolStream`, encoding values with PGlite's own serializers and
 * reading rows with its own `parse.parseResults`. PostgreSQL then plans the statement once it has
 * seen it five times (a generic plan), as node-postgres's named statements do on PostgreSQL. Texts
 * beyond `max` close the least recently used statement, so texts built with inlined values cannot
 * grow the backend's memory without bound.
 *
 * A protocol message sent while another caller's transaction is open would run inside it (PGlite's
 * `runExclusive` keeps other queries out, not the gap between a transaction's statements). So the
 * app's transactions go through `client` (what drizzle is given: PGlite's own `query`, `exec` and
 * `transaction`, the last counted while it runs), and a statement runs under `runExclusive` only
 * when no transaction is open or waiting; otherwise inside `pglite.transaction()` of its own, after
 * the others.
 */
export function namedStatements(pglite: PGlite, { max = 200 } = {}) {
  const statements = new Map<string, Statement>(); // in order of last use: the first is closed first
  /** Statements to close with the next parse (one whose table changed shape). */
  const stale: string[] = [];
  let sequence = 0;
  /** The app's transactions running or waiting to run (through `client`). */
  let transactions = 0;

  async function describe(text: string): Promise<Statement> {
    const evicted = statements.size >= max ? statements.entries().next().value : undefined;
    if (evicted) {
      statements.delete(evicted[0]);
      stale.push(evicted[1].name);
    }
    const name = `pp_named_${++sequence}`;
    const replies = await pglite.execProtocolStream(
      joined([
        ...stale.splice(0).map((old) => protocol.serialize.close({ type: 'S', name: old })),
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    return { name, parameterTypes: parse.parseDescribeStatementResults(replies) };
  }

  // PGlite merges a caller's parsers into its own by spreading all ~320 of them, per statement
  // (80 µs; executePrepared passes some with every query): here the caller's few sit over PGlite's
  // instead, made once for each set a caller passes again and again.
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

  async function run(text: string, params: unknown[], options: QueryOptions): Promise<Results> {
    let statement = statements.get(text);
    if (statement) statements.delete(text);
    statement ??= await describe(text);
    statements.set(text, statement); // at the end: used last
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.parameterTypes[i] ?? 0;
      const serialize = options.serializers?.[type] ?? pglite.serializers[type];
      return serialize ? serialize(value) : String(value);
    });
    try {
      const replies = await pglite.execProtocolStream(
        joined([
          protocol.serialize.bind({ statement: statement.name, values }),
          protocol.serialize.describe({ type: 'P' }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
        { syncToFs: false },
      );
      return parse.parseResults(replies, parsersFor(options.parsers), { rowMode: options.rowMode })[0] as Results;
    } catch (error) {
      // A statement whose tables changed shape since it was parsed must be parsed again.
      if ((error as { code?: string }).code === '0A000' && statements.get(text) === statement) {
        statements.delete(text);
        stale.push(statement.name);
        throw new ParseAgain();
      }
      throw withQuery(error, text, params, options);
    }
  }

  /** Runs the statement once: alone when no transaction is open or waiting, else in a transaction of its own. */
  async function once<T>(text: string, params: unknown[], options: QueryOptions): Promise<Results<T>> {
    const alone = await pglite.runExclusive(async () =>
      transactions === 0 ? { results: (await run(text, params, options)) as Results<T> } : null,
    );
    if (alone) return alone.results;
    const inTransaction = await client.transaction(() => pglite.runExclusive(() => run(text, params, options)));
    return inTransaction as Results<T>;
  }

  const client = {
    query: ((...args) => pglite.query(...args)) as PGlite['query'],
    exec: ((...args) => pglite.exec(...args)) as PGlite['exec'],
    transaction: (async (work) => {
      transactions++;
      try {
        return await pglite.transaction(work);
      } finally {
        transactions--;
      }
    }) as PGlite['transaction'],
  };

  return {
    /** PGlite as drizzle uses it (query, exec, transaction): its transactions counted. */
    client,
    /** `pglite.query(text, params, options)`, answered alike, as a named statement. */
    async query<T>(text: string, params: unknown[], options: QueryOptions = {}): Promise<Results<T>> {
      try {
        return await once<T>(text, params, options);
      } catch (error) {
        if (!(error instanceof ParseAgain)) throw error;
        return once<T>(text, params, options);
      }
    },
  };
}

type Statement = { name: string; parameterTypes: number[] };

/** A named statement whose tables changed shape: parsed again under a new name. */
class ParseAgain extends Error {}

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
function withQuery(error: unknown, query: string, params: unknown[], queryOptions: QueryOptions) {
  if (error instanceof Error && 'code' in error) Object.assign(error, { query, params, queryOptions });
  return error;
}
