// The core Inter file (styles/font-core.ts, issue 18): its CSS range, the characters our pages are
// written in, and the committed file all agree, so a first visit needs no other font file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_FONT_FILE, CORE_FONT_RANGES, coreUnicodeRange } from '../src/web/styles/font-core';
import { makeCoreFont } from './make-font-subset';

const ROOT = path.resolve(import.meta.dirname, '..');
const inCore = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  return CORE_FONT_RANGES.some(([from, to]) => code >= from && code <= to);
};

/** Every source file of the web app and the contract it shows, tests left out. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.(ts|tsx|html)$/.test(name) && !/\.test\.tsx?$/.test(name) && !file.includes('test-support') ? [file] : [];
  });
}

describe('the core font', () => {
  it('is declared in tokens.css for exactly its characters', () => {
    const css = readFileSync(path.join(ROOT, 'src/web/styles/tokens.css'), 'utf8');
    const face = css.match(/@font-face\s*{[^}]*inter-core\.woff2[^}]*}/)?.[0] ?? '';
    const range = face
      .match(/unicode-range:([^;]*);/)?.[1]
      ?.replace(/\s+/g, ' ')
      .trim();
    expect(range).toBe(coreUnicodeRange());
  });

  it('has every character the pages are written in', () => {
    const outside = new Map<string, string>();
    for (const file of [...sources(path.join(ROOT, 'src/web')), ...sources(path.join(ROOT, 'src/contract'))]) {
      for (const char of readFileSync(file, 'utf8')) {
        if (char > '~' && !inCore(char)) outside.set(char, path.relative(ROOT, file));
      }
    }
    // A new character in the interface: add it to CORE_FONT_RANGES and run scripts/make-font-subset.ts.
    expect(Object.fromEntries(outside)).toEqual({});
  });

  it('is the file scripts/make-font-subset.ts makes from the installed Inter', async () => {
    const source = readFileSync(
      path.join(ROOT, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2'),
    );
    const committed = readFileSync(path.join(ROOT, 'src/web/styles', CORE_FONT_FILE));
    const made = await makeCoreFont(source);
    expect(made.equals(committed)).toBe(true);
    expect(committed.length).toBeLessThan(source.length / 2);
  });
});
