#!/usr/bin/env node
// `npm run licenses`: every runtime dependency (package-lock.json without the `"dev": true` packages:
// what `npm ci --omit=dev` installs, on any platform) with its version and licence, sorted, and a
// failure (exit 1) for a licence that is unknown, missing, or copyleft and not accepted in
// docs/models.md's "Accepted copyleft packages" table (decision 070). npm test runs it beside lint,
// with `--summary`: the count and the problems, without the table.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ACCEPTED_LIST_PAGE = 'docs/models.md';
export const ACCEPTED_LIST_HEADING = '## Accepted copyleft packages';

/** Licences that ask for no more than keeping their notices (SPDX ids, compared case-insensitively). */
const PERMISSIVE = new Set(
  [
    '0BSD',
    'Apache-2.0',
    'BlueOak-1.0.0',
    'BSD-2-Clause',
    'BSD-3-Clause',
    'BSL-1.0',
    'CC-BY-3.0',
    'CC-BY-4.0',
    'CC0-1.0',
    'ISC',
    'MIT',
    'MIT-0',
    'Python-2.0',
    'Unicode-3.0',
    'Unicode-DFS-2016',
    'Unlicense',
    'WTFPL',
    'Zlib',
  ].map((id) => id.toUpperCase()),
);

/**
 * Licence families whose terms follow the code (a combined or derived work, or the changed files,
 * stay under them, or, for the network ones, its source is owed to its users): each such package
 * needs a row in docs/models.md saying why we accept it. OFL is here for fonts: a changed font stays OFL.
 */
const COPYLEFT_FAMILIES = [
  'AGPL-',
  'APSL-',
  'CC-BY-SA-',
  'CDDL-',
  'CECILL',
  'CPL-',
  'EPL-',
  'EUPL-',
  'GPL-',
  'LGPL-',
  'MPL-',
  'MS-RL',
  'ODBL-',
  'OFL-',
  'OSL-',
  'QPL-',
  'RPL-',
  'SLEEPYCAT',
  'SSPL-',
];

/**
 * Packages whose package.json says "SEE LICENSE IN <file>": the file was read and the licence decided
 * here. `fileStartsWith` is how the file began when it was read: a later version whose file says
 * something else is unknown again until someone reads it.
 */
export const SEE_LICENSE_DECISIONS = {
  '@imgly/background-removal-node': {
    licence: 'AGPL-3.0-only',
    fileStartsWith: '# GNU Affero General Public License',
    reason:
      'LICENSE.md is the GNU AGPL version 3 (no "or any later version" grant); its README: "free for use under the AGPL License"',
  },
};

/** The GNU licences' deprecated ids (GPL-3.0, GPL-3.0+) as the ids that replaced them. */
function normalisedId(id) {
  const plus = id.endsWith('+');
  const base = plus ? id.slice(0, -1) : id;
  if (/^(A|L)?GPL-\d\.\d$/i.test(base)) return `${base}-${plus ? 'or-later' : 'only'}`;
  return id;
}

/** `MIT`, `(MIT OR Apache-2.0)`, `Apache-2.0 AND LGPL-3.0-or-later`, `GPL-2.0-only WITH Classpath-exception-2.0`. */
export function parseLicenceExpression(text) {
  const tokens = text.match(/\(|\)|[^\s()]+/g) ?? [];
  let at = 0;
  const peek = () => tokens[at]?.toUpperCase();
  const fail = (why) => {
    throw new Error(`not an SPDX expression (${why}): ${text}`);
  };
  function atom() {
    const token = tokens[at++];
    if (token === undefined) fail('it ends early');
    if (token === '(') {
      const inner = anyOf();
      if (tokens[at++] !== ')') fail('a parenthesis is not closed');
      return inner;
    }
    if (token === ')' || ['AND', 'OR', 'WITH'].includes(token.toUpperCase()))
      fail(`"${token}" where a licence was expected`);
    let id = normalisedId(token);
    if (peek() === 'WITH') {
      at += 1;
      const exception = tokens[at++];
      if (exception === undefined || exception === '(' || exception === ')') fail('WITH names no exception');
      id = `${id} WITH ${exception}`;
    }
    return { id };
  }
  function allOf() {
    const terms = [atom()];
    while (peek() === 'AND') {
      at += 1;
      terms.push(atom());
    }
    return terms.length === 1 ? terms[0] : { and: terms };
  }
  function anyOf() {
    const terms = [allOf()];
    while (peek() === 'OR') {
      at += 1;
      terms.push(allOf());
    }
    return terms.length === 1 ? terms[0] : { or: terms };
  }
  const expression = anyOf();
  if (at < tokens.length) fail(`"${tokens[at]}" after the end`);
  return expression;
}

/** permissive, copyleft or unknown (a licence nobody has decided about yet, LicenseRef-*, UNLICENSED). */
export function licenceKind(id) {
  const base = id.split(' WITH ')[0].toUpperCase();
  if (PERMISSIVE.has(base)) return 'permissive';
  if (COPYLEFT_FAMILIES.some((family) => base.startsWith(family))) return 'copyleft';
  return 'unknown';
}

// Worst first is what AND keeps; OR keeps the best.
const RANK = { permissive: 0, accepted: 1, copyleft: 2, unknown: 3 };

/**
 * The verdict on a declared licence (an SPDX expression, or null when the package declares none):
 * `permissive`; `accepted`: copyleft, each such licence listed for the package in docs/models.md;
 * `copyleft`: copyleft not listed; `unknown`. `licences` names the ones that decided it.
 * Either side of OR may be chosen; AND needs both.
 */
export function judgeLicence(declared, acceptedLicences = new Set()) {
  if (!declared) return { verdict: 'unknown', licences: [] };
  let expression;
  try {
    expression = parseLicenceExpression(declared);
  } catch {
    return { verdict: 'unknown', licences: [declared] };
  }
  const accepted = new Set([...acceptedLicences].map((id) => normalisedId(id).toUpperCase()));
  const judge = (node) => {
    if ('id' in node) {
      const kind = licenceKind(node.id);
      const verdict = kind === 'copyleft' && accepted.has(node.id.toUpperCase()) ? 'accepted' : kind;
      return { verdict, licences: verdict === 'permissive' ? [] : [node.id] };
    }
    const parts = (node.and ?? node.or).map(judge);
    const pick = node.and ? Math.max : Math.min;
    const rank = pick(...parts.map((part) => RANK[part.verdict]));
    const deciding = parts.filter((part) => RANK[part.verdict] === rank);
    // AND: every part at the worst rank counts; OR: the first best alternative is the one taken.
    const licences = node.and ? deciding.flatMap((part) => part.licences) : (deciding[0]?.licences ?? []);
    return { verdict: deciding[0]?.verdict ?? 'unknown', licences };
  };
  return judge(expression);
}

/**
 * What a package declares: `licence`, the SPDX expression judged (null: none found, or a file not
 * decided); `shown`, the words the table prints. From the lock file's `license`; else its
 * package.json's `license` (a string, or the old `{ type }` object) or old `licenses` array (any one
 * of them: `(A OR B)`); "SEE LICENSE IN <file>" as decided in SEE_LICENSE_DECISIONS, the file checked.
 * `note` says why where the words alone do not.
 */
export function declaredLicence(name, lockEntry, packageDir) {
  let declared = typeof lockEntry.license === 'string' ? lockEntry.license : null;
  if (declared === null) {
    const manifest = path.join(packageDir, 'package.json');
    if (!existsSync(manifest)) {
      return { licence: null, shown: '(none)', note: 'no licence in package-lock.json, and not installed' };
    }
    const json = JSON.parse(readFileSync(manifest, 'utf8'));
    const typeOf = (entry) => (typeof entry === 'string' ? entry : entry?.type);
    if (json.license !== undefined) declared = typeOf(json.license) ?? null;
    else if (Array.isArray(json.licenses) && json.licenses.length > 0) {
      const types = json.licenses.map(typeOf);
      declared = types.every(Boolean) ? (types.length === 1 ? types[0] : `(${types.join(' OR ')})`) : null;
    }
    if (declared === null) return { licence: null, shown: '(none)', note: 'its package.json declares no licence' };
  }
  const seeFile = /^SEE LICEN[CS]E IN (.+)$/i.exec(declared.trim());
  if (!seeFile) return { licence: declared, shown: declared };
  const undecided = (note) => ({ licence: null, shown: declared, note });
  const decision = SEE_LICENSE_DECISIONS[name];
  if (!decision) return undecided(`"${declared}": read the file and decide in scripts/licenses.mjs`);
  const file = path.join(packageDir, seeFile[1]);
  if (!existsSync(file)) return undecided(`${seeFile[1]} is not installed: the decision cannot be confirmed`);
  if (!readFileSync(file, 'utf8').startsWith(decision.fileStartsWith)) {
    return undecided(`${seeFile[1]} no longer begins as it did when decided: read it again`);
  }
  return { licence: decision.licence, shown: `${decision.licence} (${declared})`, note: decision.reason };
}

/** A runtime package's name from its path in the lock file (node_modules/a/node_modules/@b/c: @b/c). */
const nameAt = (lockPath) => lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** Every package the lock file installs outside development, one per name and version, sorted. */
export function runtimePackages(lock) {
  const byKey = new Map();
  for (const [lockPath, entry] of Object.entries(lock.packages ?? {})) {
    // "": the project itself; a link's target is listed under its own path.
    if (lockPath === '' || entry.dev || entry.link) continue;
    const name = entry.name ?? nameAt(lockPath);
    const key = `${name}@${entry.version}`;
    if (!byKey.has(key)) byKey.set(key, { name, version: entry.version ?? '', lockPath, entry });
  }
  return [...byKey.values()].sort((a, b) => a.name.localeCompare(b.name, 'en') || a.version.localeCompare(b.version));
}

/**
 * docs/models.md's accepted copyleft packages: the table under ACCEPTED_LIST_HEADING, one row each:
 * package (a trailing `*` names every package that begins so), the copyleft licence accepted, why.
 */
export function readAcceptedCopyleft(markdown) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === ACCEPTED_LIST_HEADING);
  if (start < 0) throw new Error(`${ACCEPTED_LIST_PAGE} has no "${ACCEPTED_LIST_HEADING}" section`);
  const rows = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.trim().startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim().replace(/^`|`$/g, ''));
    const [pattern = '', licence = '', reason = ''] = cells;
    // The header row and its separator.
    if (pattern === 'package' || /^:?-+:?$/.test(pattern)) continue;
    if (!pattern || !licence || !reason) {
      throw new Error(`${ACCEPTED_LIST_PAGE}: each accepted package needs a package, a licence and a reason: ${line}`);
    }
    rows.push({ pattern, licence: normalisedId(licence) });
  }
  if (rows.length === 0) throw new Error(`${ACCEPTED_LIST_PAGE}: the "${ACCEPTED_LIST_HEADING}" table is empty`);
  return rows;
}

const matches = (pattern, name) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern);

/**
 * Every runtime package judged: rows for the table, and the problems that fail the check (packages
 * refused, and rows of the accepted list that no runtime package needs any more, so that the page
 * never accepts more than the tree holds).
 */
export function checkLicences({ lock, acceptedMarkdown, projectRoot = root }) {
  const acceptedRows = readAcceptedCopyleft(acceptedMarkdown);
  const usedRows = new Set();
  const rows = runtimePackages(lock).map(({ name, version, lockPath, entry }) => {
    const { licence, shown, note } = declaredLicence(name, entry, path.join(projectRoot, lockPath));
    const listed = acceptedRows.filter((row) => matches(row.pattern, name));
    const judged = judgeLicence(licence, new Set(listed.map((row) => row.licence)));
    const upper = new Set(judged.licences.map((id) => id.toUpperCase()));
    if (judged.verdict === 'accepted')
      for (const row of listed) if (upper.has(row.licence.toUpperCase())) usedRows.add(row);
    return { name, version, licence: shown, verdict: judged.verdict, licences: judged.licences, note };
  });
  const problems = rows
    .filter((row) => row.verdict === 'copyleft' || row.verdict === 'unknown')
    .map((row) =>
      row.verdict === 'copyleft'
        ? `${row.name}@${row.version}: ${row.licences.join(' AND ')} is copyleft and not in ${ACCEPTED_LIST_PAGE}'s "Accepted copyleft packages"`
        : `${row.name}@${row.version}: unknown licence ${row.note ? `(${row.note})` : `"${row.licence}"`}`,
    );
  for (const row of acceptedRows) {
    if (!usedRows.has(row)) {
      problems.push(
        `${ACCEPTED_LIST_PAGE} accepts ${row.pattern} under ${row.licence}, which no runtime package needs: remove the row`,
      );
    }
  }
  return { rows, problems };
}

const VERDICT_TEXT = {
  permissive: '',
  accepted: `copyleft, accepted in ${ACCEPTED_LIST_PAGE}`,
  copyleft: 'COPYLEFT, NOT ACCEPTED',
  unknown: 'UNKNOWN',
};

/** Prints the table (with `--summary`: only the count) and the problems; exit code 1 when there are any. */
function main(summaryOnly) {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const acceptedMarkdown = readFileSync(path.join(root, ACCEPTED_LIST_PAGE), 'utf8');
  let checked;
  try {
    checked = checkLicences({ lock, acceptedMarkdown });
  } catch (error) {
    // The page's list cannot be read: say what is wrong with it, without a stack.
    console.error(`Licence check failed: ${error.message}`);
    process.exitCode = 1;
    return;
  }
  const { rows, problems } = checked;
  if (!summaryOnly) printTable(rows);
  const count = (verdict) => rows.filter((row) => row.verdict === verdict).length;
  console.log(
    `${rows.length} runtime packages (package-lock.json without dev): ${count('permissive')} permissive, ` +
      `${count('accepted')} copyleft accepted in ${ACCEPTED_LIST_PAGE}, ${count('copyleft') + count('unknown')} refused.`,
  );
  if (problems.length > 0) {
    console.error(`\nLicence check failed:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    console.error(
      `A copyleft package needs a row in ${ACCEPTED_LIST_PAGE} ("${ACCEPTED_LIST_HEADING.slice(3)}": package, licence, why) ` +
        'and a look at decision 070; an unknown licence, a reading of the package and a decision in scripts/licenses.mjs.',
    );
    process.exitCode = 1;
  }
}

function printTable(rows) {
  const width = (key, title) => Math.max(title.length, ...rows.map((row) => row[key].length));
  const [nameWidth, versionWidth, licenceWidth] = [
    width('name', 'package'),
    width('version', 'version'),
    width('licence', 'licence'),
  ];
  const line = (name, version, licence, verdict) =>
    `${name.padEnd(nameWidth)}  ${version.padEnd(versionWidth)}  ${licence.padEnd(licenceWidth)}  ${verdict}`.trimEnd();
  console.log(line('package', 'version', 'licence', ''));
  for (const row of rows) console.log(line(row.name, row.version, row.licence, VERDICT_TEXT[row.verdict]));
  console.log('');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.includes('--summary'));
}
