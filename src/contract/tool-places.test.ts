// One tool in one place (issue 56, docs/adding-a-tool.md): outside a tool's own folders, only the
// three lists name it. Shared code asks the tool's definition instead of testing its id, so an
// eleventh tool touches its three folders and the three lists, nothing else.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOL_IDS } from './tools';

const root = path.resolve(import.meta.dirname, '../..');
const THE_LISTS = [
  'src/contract/tool-list.ts',
  'src/server/tools/tool-modules.ts',
  'src/web/features/tools/registry.ts',
];

/** The source files under src/, without tests and test fixtures (a test may exercise one tool by name). */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(relative);
    return /\.(ts|tsx|mts|mjs)$/.test(entry.name) && !/\.test\./.test(entry.name) ? [relative] : [];
  });
}

describe('where a tool is named', () => {
  const files = sourceFiles('src').map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));

  it.each(TOOL_IDS)('%s: only in its own folders and the three lists', (id) => {
    const naming = files
      .filter(({ file, text }) => !file.includes(`/${id}/`) && text.includes(id))
      .map(({ file }) => file)
      .sort();
    expect(naming).toEqual([...THE_LISTS].sort());
  });
});
