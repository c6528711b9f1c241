// Migrated template databases for integration tests, built once per run (global setup):
// PGlite: a data-dir tarball that each test file loads (cached across runs by content hash; not
// compressed: a gzipped one cost each new database 0.3-0.4 CPU-s more, about 1 against 0.65);
// PostgreSQL: a template database that each test file copies with CREATE DATABASE ... TEMPLATE.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type Database, MIGRATIONS_DIR, migrateDatabase, openPglite, openPostgres } from '../../src/server/db/client';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CACHE_DIR = path.join(ROOT, '.tmp/test-db');

/** What the template contains: the migrated schema. */
async function prepare(database: Database) {
  await migrateDatabase(database);
}

function templateKey(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR, { recursive: true }).map(String).sort()) {
    const full = path.join(MIGRATIONS_DIR, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(full));
  }
  hash.update(
    JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version,
  );
  return hash.digest('hex').slice(0, 16);
}

export async function buildPgliteTemplate(): Promise<string> {
  const file = path.join(CACHE_DIR, `pglite-${templateKey()}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(CACHE_DIR, { recursive: true });
  const database = await openPglite();
  try {
    await prepare(database);
    const dump = await database.pglite.dumpDataDir('none');
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await database.close();
  }
  return file;
}

export type PostgresTemplate = { adminUrl: string; templateName: string };

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function buildPostgresTemplate(adminUrl: string): Promise<PostgresTemplate> {
  const templateName = `pp_tpl_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${templateName}`);
  } finally {
    await admin.end();
  }
  const database = await openPostgres(databaseUrl(adminUrl, templateName), { max: 2 });
  try {
    await prepare(database);
  } finally {
    await database.close();
  }
  return { adminUrl, templateName };
}

export async function dropPostgresDatabases(adminUrl: string, names: string[]) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const name of names) await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}
