#!/usr/bin/env node
// `node scripts/check-imports.mjs` (in `npm run lint` and `npm test`): the "may import" table of
// docs/architecture.md ("## src/server, by folder") is the rule the server's imports keep. Every file of
// src/server and src/contract belongs to the row that names it most closely; each of its imports (static,
// `import type`, `export ... from`, dynamic `import()`) must land in its own row or in one the row's
// "may import" cell names, and no two rows may import each other, directly or round a longer loop.
// Test files (`*.test.ts`) are exempt: nothing imports them. A file no row names fails too, so a new
// folder gets its row. Prints one line when all is well; otherwise every wrong import (file, import,
// rule) and every loop, and exits 1.
//
// The table's cells, as this reads them (anything after a `;` is prose for the reader):
//   first column: the row's names in backticks: a folder (`jobs/queue/`), a file (`config.ts`), paths
//     under src/server; `contract` is src/contract/.
//   "may import": `everything`, `nothing`, or names in backticks: a row's name (that row's files), or a
//     narrower file or folder inside another row (`webhooks/deliveries/delivery-repository.ts`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TABLE_PAGE = 'docs/architecture.md';
export const TABLE_HEADING = '## src/server, by folder';
/** The table's name for src/contract (a sibling of src/server). */
const CONTRACT = 'contract';
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const TEST = /\.test\.(ts|tsx)$/;

/** A markdown row's cells (`|` inside backticks does not split). */
function cellsOf(line) {
  const cells = [];
  let cell = '';
  let inCode = false;
  for (const char of line.trim().replace(/^\|/, '').replace(/\|$/, '')) {
    if (char === '`') inCode = !inCode;
    if (char === '|' && !inCode) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

/** A cell's list: the backticked names before any `;` (and only them: a stray word is a mistake). */
function namesIn(cell, where) {
  const list = cell.split(';')[0] ?? '';
  const names = [...list.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
  const rest = list
    .replace(/`[^`]+`/g, '')
    .replace(/,|\band\b/g, '')
    .trim();
  if (rest) throw new Error(`${where}: "${rest}" is not a name in backticks (prose goes after a ";")`);
  return names;
}

/**
 * The table's rows: `{ names, mayImport }`, where mayImport is 'everything' or a list of names
 * ('nothing' is the empty list). Throws, naming the line, on a row it cannot read.
 */
export function parseLayerTable(markdown) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === TABLE_HEADING);
  if (start < 0) throw new Error(`no "${TABLE_HEADING}" section`);
  const rows = [];
  let header = null;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line.startsWith('## ')) break;
    if (!line.startsWith('|')) {
      if (header) break;
      continue;
    }
    const cells = cellsOf(line);
    if (!header) {
      header = cells.map((cell) => cell.toLowerCase());
      continue;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    const where = `${TABLE_PAGE} line ${i + 1}`;
    const mayImportAt = header.indexOf('may import');
    if (mayImportAt < 0) throw new Error(`${where}: the table has no "may import" column`);
    const names = namesIn(cells[0] ?? '', where);
    if (names.length === 0) throw new Error(`${where}: the row names no folder or file`);
    const cell = cells[mayImportAt] ?? '';
    const word = (cell.split(';')[0] ?? '').trim();
    const mayImport = word === 'everything' ? 'everything' : word === 'nothing' ? [] : namesIn(cell, where);
    rows.push({ names, mayImport, line: i + 1 });
  }
  if (rows.length === 0) throw new Error(`the "${TABLE_HEADING}" section has no table`);
  return rows;
}

/** A name's path from the project root (`contract` is src/contract/, the rest are under src/server/). */
function pathOfName(name) {
  if (name === CONTRACT) return 'src/contract/';
  const normal = path.posix.normalize(`src/server/${name}`).replace(/\/$/, '');
  return name.endsWith('/') ? `${normal}/` : normal;
}

/** Whether `name` (its path: a folder ends in `/`) names `file` (a path from the root). */
const covers = (namePath, file) => (namePath.endsWith('/') ? file.startsWith(namePath) : file === namePath);

/** The most specific of `namePaths` that covers `file`, or undefined. */
function closest(namePaths, file) {
  let best;
  for (const namePath of namePaths)
    if (covers(namePath, file) && (!best || namePath.length > best.length)) best = namePath;
  return best;
}

function sourceFilesUnder(dir, projectRoot) {
  const files = [];
  const walk = (at) => {
    for (const entry of readdirSync(path.join(projectRoot, at), { withFileTypes: true })) {
      const relative = `${at}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (SOURCE.test(entry.name) && !TEST.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(relative);
    }
  };
  walk(dir);
  return files.sort();
}

const isFile = (file) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The project-relative file a relative specifier names (TypeScript's bundler resolution), or null. */
function resolveSpecifier(fromFile, specifier, projectRoot) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier.split('?')[0]));
  const stem = base.replace(/\.(js|mjs)$/, '');
  const candidates = [
    base,
    ...['.ts', '.tsx', '.mts', '.js', '.mjs'].map((extension) => stem + extension),
    ...['/index.ts', '/index.tsx', '/index.js'].map((index) => base + index),
  ];
  return candidates.find((candidate) => isFile(path.join(projectRoot, candidate))) ?? null;
}

/** Strongly connected components of more than one node (Tarjan), each as a list of nodes. */
function loopsOf(graph) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const loops = [];
  const visit = (node) => {
    indexOf.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indexOf.get(next)));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) loops.push(component.reverse());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return loops;
}

/** A shortest loop through the component's first row, [first, ..., first] (breadth-first within it). */
function loopThrough(graph, component) {
  const members = new Set(component);
  const [first] = component;
  const cameFrom = new Map();
  const queue = [first];
  while (queue.length > 0 && !cameFrom.has(first)) {
    const node = queue.shift();
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!members.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, node);
      queue.push(next);
    }
  }
  const loop = [first];
  for (let node = cameFrom.get(first); node !== first; node = cameFrom.get(node)) loop.unshift(node);
  return [first, ...loop];
}

/**
 * Checks the imports of every source file under src/server and src/contract of `projectRoot` against
 * `rows` (parseLayerTable). Returns `{ problems, files, rows }`: problems is empty when all is well.
 */
export function checkImports({ projectRoot = root, rows }) {
  const problems = [];
  const rowOfName = new Map();
  for (const row of rows) for (const name of row.names) rowOfName.set(pathOfName(name), row);
  const namePaths = [...rowOfName.keys()];
  const label = (row) => row.names.map((name) => `\`${name}\``).join(', ');
  const files = [...sourceFilesUnder('src/server', projectRoot), ...sourceFilesUnder('src/contract', projectRoot)];
  const rowOf = (file) => {
    const name = closest(namePaths, file);
    return name ? rowOfName.get(name) : undefined;
  };
  /** Whether `row` may import `target`: its own row, everything, or a name whose closest match it is. */
  const mayImport = (row, target, targetRow) => {
    if (row === targetRow || row.mayImport === 'everything') return true;
    return row.mayImport.some((name) => {
      const allowed = pathOfName(name);
      return closest([...namePaths, allowed], target) === allowed;
    });
  };

  for (const row of rows) {
    for (const name of row.names) {
      const named = pathOfName(name);
      const found = named.endsWith('/') ? files.some((file) => file.startsWith(named)) : files.includes(named);
      if (!found) problems.push(`${TABLE_PAGE} line ${row.line}: \`${name}\` is in no file of src/`);
    }
  }
  /** Row -> row it imports -> the first import that does it ("file imports 'specifier'"). */
  const graph = new Map();
  for (const file of files) {
    const row = rowOf(file);
    if (!row) {
      problems.push(`${file}: no row of ${TABLE_PAGE}'s "may import" table names it or its folder (add one)`);
      continue;
    }
    const imported = ts.preProcessFile(readFileSync(path.join(projectRoot, file), 'utf8'), true, true).importedFiles;
    for (const { fileName: specifier } of imported) {
      if (!specifier.startsWith('.')) continue; // a package
      const target = resolveSpecifier(file, specifier, projectRoot);
      if (!target) {
        problems.push(`${file} imports '${specifier}': no such file`);
        continue;
      }
      const targetRow = rowOf(target);
      if (!mayImport(row, target, targetRow)) {
        const allowed = row.mayImport.length ? row.mayImport.map((name) => `\`${name}\``).join(', ') : 'nothing';
        const where = targetRow ? label(targetRow) : `${target}, in no row`;
        problems.push(
          `${file} imports '${specifier}' (${where}): ${label(row)} may import ${allowed} (${TABLE_PAGE} line ${row.line})`,
        );
      }
      if (!targetRow || row === targetRow) continue;
      if (!graph.has(row)) graph.set(row, new Map());
      const edges = graph.get(row);
      if (!edges.has(targetRow)) edges.set(targetRow, `${file} imports '${specifier}'`);
    }
  }
  for (const component of loopsOf(graph)) {
    const loop = loopThrough(graph, component);
    const steps = loop
      .slice(0, -1)
      .map((row, i) => `${label(row)} -> ${label(loop[i + 1])} (${graph.get(row).get(loop[i + 1])})`);
    problems.push(`folders import each other: ${steps.join('; ')}`);
  }
  return { problems, files, rows };
}

function main() {
  let rows;
  try {
    rows = parseLayerTable(readFileSync(path.join(root, TABLE_PAGE), 'utf8'));
  } catch (error) {
    console.error(`check-imports: ${error.message}`);
    process.exit(1);
  }
  const { problems, files } = checkImports({ rows });
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    console.error(`check-imports: ${problems.length} import(s) against ${TABLE_PAGE}'s "may import" table`);
    process.exit(1);
  }
  console.log(
    `check-imports: ${files.length} files in ${rows.length} rows import as ${TABLE_PAGE}'s table says, no folder loop`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
