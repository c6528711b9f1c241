import { describe, expect, it } from 'vitest';
import { htmlPage } from './html-page';

describe('htmlPage', () => {
  it('writes a complete page whose title is escaped and whose style and main are kept as given', () => {
    const html = htmlPage({ title: 'Tom & "Jerry" <3', style: 'a{color:#123}', main: '<p>Hi</p>' });
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>Tom &amp; &quot;Jerry&quot; &lt;3</title>');
    expect(html).toContain('<style>a{color:#123}</style>');
    expect(html).toContain('<main>\n<p>Hi</p>\n</main>');
    expect(html).not.toContain('robots');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('asks search engines to stay away when told to', () => {
    expect(htmlPage({ title: 't', style: '', main: '', noindex: true })).toContain(
      '<meta name="robots" content="noindex">',
    );
  });
});
