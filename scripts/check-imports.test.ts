// `node scripts/check-imports.mjs` (npm run lint, npm test): docs/architecture.md's "may import" table
// as the rule of the server's imports, on a small tree of its own and on the real one.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkImports, parseLayerTable, TABLE_HEADING, TABLE_PAGE } from './check-imports.mjs';

const root = path.resolve(import.meta.dirname, '..');
const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** A table of three layers: the entry on top, `jobs/` on `db/`, `db/` on the contract. */
const TABLE = `# Architecture

${TABLE_HEADING}

| folder | holds | may import |
|---|---|---|
| \`main.ts\` | the entry | everything |
| \`contract\`; src/contract/ | shared | nothing |
| \`db/\` | the database | \`contract\`; never jobs |
| \`jobs/\` | the jobs | \`db/\`, \`contract\` |
| \`jobs/queue/\` | the queue | \`db/\`, \`jobs/shared.ts\` |

## Next section
`;

/** A project with `files` (path -> source) and `table` as its docs/architecture.md. */
function tree(files: Record<string, string>, table = TABLE): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'check-imports-'));
  trees.push(dir);
  const all: Record<string, string> = {
    'src/contract/tools.ts': 'export const TOOLS = [];\n',
    'src/server/main.ts':
      "import { run } from './jobs/run';\nimport { take } from './jobs/queue/take';\ntake(run());\n",
    'src/server/db/client.ts': "import { TOOLS } from '../../contract/tools';\nexport const db = TOOLS;\n",
    'src/server/jobs/run.ts': "import { db } from '../db/client';\nexport const run = () => db;\n",
    'src/server/jobs/shared.ts': 'export const shared = 1;\n',
    'src/server/jobs/queue/take.ts':
      "import { shared } from '../shared';\nexport const take = (db: unknown) => [db, shared];\n",
    'src/server/jobs/run.test.ts': "import { db } from '../../../test/anything';\n",
    [TABLE_PAGE]: table,
    ...files,
  };
  for (const [file, source] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  return dir;
}

const check = (dir: string) =>
  checkImports({ projectRoot: dir, rows: parseLayerTable(readFileSync(path.join(dir, TABLE_PAGE), 'utf8')) }).problems;

describe('the import layers', () => {
  it('pass a tree whose imports keep the table, tests exempt', () => {
    expect(check(tree({}))).toEqual([]);
  });

  it('fail a wrong-way import, naming the file, the import and the rule', () => {
    const dir = tree({ 'src/server/db/client.ts': "import { run } from '../jobs/run';\nexport const db = run;\n" });
    expect(check(dir)).toContainEqual(
      `src/server/db/client.ts imports '../jobs/run' (\`jobs/\`): \`db/\` may import \`contract\` (${TABLE_PAGE} line 9)`,
    );
  });

  it('check type imports, re-exports and dynamic imports alike', () => {
    for (const source of [
      "import type { run } from '../jobs/run';\nexport type Db = typeof run;\n",
      "export { run } from '../jobs/run';\n",
      "export const later = () => import('../jobs/run');\n",
    ]) {
      const problems = check(tree({ 'src/server/db/client.ts': source }));
      expect(problems.some((problem) => problem.startsWith("src/server/db/client.ts imports '../jobs/run'"))).toBe(
        true,
      );
    }
  });

  it('let a row import a narrower file of another row, and only that file', () => {
    const dir = tree({
      'src/server/jobs/queue/take.ts':
        "import { run } from '../run';\nexport const take = (db: unknown) => [db, run];\n",
    });
    expect(check(dir)).toContainEqual(expect.stringMatching(/^src\/server\/jobs\/queue\/take\.ts imports '\.\.\/run'/));
  });

  it('fail folders that import each other, even when the table allows both ways', () => {
    const table = TABLE.replace('| `contract`; never jobs |', '| `contract`, `jobs/` |');
    const dir = tree(
      { 'src/server/db/client.ts': "import { shared } from '../jobs/shared';\nexport const db = shared;\n" },
      table,
    );
    expect(check(dir)).toEqual([
      "folders import each other: `db/` -> `jobs/` (src/server/db/client.ts imports '../jobs/shared'); `jobs/` -> `db/` (src/server/jobs/run.ts imports '../db/client')",
    ]);
  });

  it('fail a folder no row names, and a row that names no file', () => {
    const dir = tree({ 'src/server/mail/send.ts': 'export const send = 1;\n' });
    expect(check(dir)).toContainEqual(
      `src/server/mail/send.ts: no row of ${TABLE_PAGE}'s "may import" table names it or its folder (add one)`,
    );
    const table = TABLE.replace('## Next section', '');
    const withGhost = table.replace('| `jobs/queue/` |', '| `ghost/` | gone | nothing |\n| `jobs/queue/` |');
    expect(check(tree({}, withGhost))).toContainEqual(`${TABLE_PAGE} line 11: \`ghost/\` is in no file of src/`);
  });

  it('refuse a table cell it cannot read as names', () => {
    const table = TABLE.replace('| `contract`; never jobs |', '| `contract`, never `jobs/` |');
    expect(() => parseLayerTable(table)).toThrow(`${TABLE_PAGE} line 9: "never" is not a name in backticks`);
  });

  it('hold on the real tree: docs/architecture.md is the rule src/server keeps', () => {
    const rows = parseLayerTable(readFileSync(path.join(root, TABLE_PAGE), 'utf8'));
    const { problems, files } = checkImports({ projectRoot: root, rows });
    expect(problems).toEqual([]);
    expect(files.length).toBeGreaterThan(200);
  });
});
