import { describe, expect, it } from 'vitest';
import { htmlDocument, htmlPage } from './html-page';

describe('htmlPage', () => {
  it('writes a complete page whose title is escaped and whose style and main are kept as given', () => {
    const html = htmlPage({ title: 'Tom & "Jerry" <3', style: 'a{color:#123}', main: '<p>Hi</p>' });
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
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

describe('htmlDocument', () => {
  it('puts the extra head before the title and the attributes on <body>', () => {
    const html = htmlDocument({
      title: 'Mail',
      head: '<meta name="color-scheme" content="light">\n',
      bodyAttributes: ' style="margin:0"',
      body: '<table></table>',
    });
    expect(html).toContain('<meta name="color-scheme" content="light">\n<title>Mail</title>\n</head>');
    expect(html).toContain('<body style="margin:0">\n<table></table>\n</body>');
  });
});
