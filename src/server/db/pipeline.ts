// Several statements as ONE transaction in ONE round trip (decision 032). On PostgreSQL each
// statement's Parse/Bind/Describe/Execute goes out in one write and a single Sync closes them: the
// server runs them in order as one implicit transaction (committed at the Sync, rolled back when one
// fails, the rest then skipped), and under READ COMMITTED each statement takes its own snapshot when it
// starts, so a statement after a row lock sees every commit made while the lock was waited for.
// That is BEGIN, a lock, a write and COMMIT without four round trips (node-postgres sends a Sync
// after every query). Each statement is named (parsed once per connection, as executePrepared's).
// PGlite runs one statement at a time anyway: there the statements run in a transaction of its own.
import { createRequire } from 'node:module';
import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type AppDb, executePrepared, postgresClientOf, type SqlRows, statementNamer } from './client';

// node-postgres's own value encoding and row parsing, as its Query uses them (pg-cursor does the same).
const require = createRequire(import.meta.url);
const { prepareValue } = require('pg/lib/utils.js') as { prepareValue(value: unknown): string | Buffer | null };
type PgResult = {
  rows: Record<string, unknown>[];
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): Record<string, unknown>;
  addRow(row: Record<string, unknown>): void;
  addCommandComplete(message: unknown): void;
};
const Result = require('pg/lib/result.js') as new () => PgResult;

/** The wire connection of a node-postgres client: the messages a custom query writes itself. */
type WireConnection = {
  stream: { cork?(): void; uncork?(): void };
  close(message: { type: 'S'; name: string }): void;
  parse(message: { text: string; name: string; types: number[] }): void;
  bind(message: { statement: string; values: (string | Buffer | null)[] }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
  sendCopyFail(message: string): void;
};

/** A value node-postgres cannot encode (found before anything was written to the connection). */
class UnsendableValueError extends Error {
  override name = 'UnsendableValueError';
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** `name` undefined: the unnamed statement, parsed with each use (past the namer's 200 texts). */
type Statement = { name: string | undefined; text: string; values: unknown[] };

/** Names this module has seen parsed on each connection (a statement's RowDescription or completion). */
const parsedOn = new WeakMap<WireConnection, Set<string>>();

const statementName = statementNamer('pl_');

/**
 * A node-postgres "submittable": the client hands it the connection and the backend's answers.
 * Answers arrive in statement order; each statement's ends with its CommandComplete.
 */
class StatementPipeline {
  private readonly results: SqlRows[] = [];
  private current: PgResult | null = null;
  private failure: Error | null = null;
  private parsed = new Set<string>();

  constructor(
    private readonly statements: Statement[],
    readonly callback: (error: Error | null, results?: SqlRows[]) => void,
  ) {}

  submit(connection: WireConnection): Error | null {
    let values: (string | Buffer | null)[][];
    try {
      values = this.statements.map((statement) => statement.values.map((value) => prepareValue(value)));
    } catch (error) {
      return new UnsendableValueError(error); // nothing written: the client reports it and goes on
    }
    this.parsed = parsedOn.get(connection) ?? new Set();
    parsedOn.set(connection, this.parsed);
    connection.stream.cork?.();
    try {
      this.statements.forEach((statement, i) => {
        const name = statement.name ?? '';
        if (!name || !this.parsed.has(name)) {
          // A pipeline that failed may have left it parsed or not; closing one that is not there is no error.
          if (name) connection.close({ type: 'S', name });
          connection.parse({ text: statement.text, name, types: [] });
        }
        connection.bind({ statement: name, values: values[i] ?? [] });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
      });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  /** The statement whose answers are arriving: the one after those already complete. */
  private answering(): PgResult {
    if (!this.current) {
      this.current = new Result();
      const statement = this.statements[this.results.length];
      if (statement?.name) this.parsed.add(statement.name);
    }
    return this.current;
  }

  handleRowDescription(message: { fields: unknown[] }) {
    this.answering().addFields(message.fields);
  }

  handleDataRow(message: { fields: unknown[] }) {
    if (this.failure) return;
    const result = this.answering();
    try {
      result.addRow(result.parseRow(message.fields));
    } catch (error) {
      this.failure = error as Error;
    }
  }

  handleCommandComplete(message: unknown) {
    const result = this.answering();
    result.addCommandComplete(message);
    this.results.push({ rows: result.rows });
    this.current = null;
  }

  handleEmptyQuery() {
    this.answering();
    this.results.push({ rows: [] });
    this.current = null;
  }

  handleError(error: Error) {
    this.callback(error);
  }

  handleReadyForQuery() {
    if (this.failure) this.callback(this.failure);
    else this.callback(null, this.results);
  }

  handlePortalSuspended() {} // never: every Execute asks for all rows

  handleCopyInResponse(connection: WireConnection) {
    connection.sendCopyFail('a pipelined statement cannot copy');
  }

  handleCopyData() {}
}

/** Runs the statements on one node-postgres client, in one round trip. */
function runOn(client: pg.ClientBase, statements: Statement[]): Promise<SqlRows[]> {
  return new Promise((resolve, reject) => {
    const pipeline = new StatementPipeline(statements, (error, results) =>
      error ? reject(error) : resolve(results ?? []),
    );
    client.query(pipeline as unknown as pg.Submittable);
  });
}

/**
 * Runs `queries` in order as one transaction and answers each one's rows. Inside `db.transaction`
 * (a `tx`) they are part of that transaction. A failing statement rolls back the ones before it
 * (outside a transaction) and throws its error; the ones after it do not run.
 */
export async function executePipelined(db: Pick<AppDb, '_' | 'transaction'>, queries: SQL[]): Promise<SqlRows[]> {
  const client = postgresClientOf(db);
  if (!client) {
    // PGlite: one connection, one statement at a time; a transaction of its own keeps them atomic.
    return db.transaction(async (tx) => {
      const results: SqlRows[] = [];
      for (const query of queries) results.push(await executePrepared(tx, query));
      return results;
    });
  }
  const { dialect } = db._.session as unknown as { dialect: PgDialect };
  const statements = queries.map((query) => {
    const { sql, params } = dialect.sqlToQuery(query);
    return { name: statementName(sql), text: sql, values: params };
  });
  if (client instanceof pg.Client) return runOn(client, statements);
  const pooled = await client.connect();
  try {
    const results = await runOn(pooled, statements);
    pooled.release();
    return results;
  } catch (error) {
    // A statement's error leaves the connection ready for the next; a lost connection is let go.
    const connectionFine = error instanceof pg.DatabaseError || error instanceof UnsendableValueError;
    pooled.release(connectionFine ? undefined : (error as Error));
    throw error;
  }
}
