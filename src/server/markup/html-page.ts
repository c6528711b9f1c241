// The head and frame of the HTML we write by hand: the server's own pages (the test checkout, the
// dev mail outbox) and the mails. A page has one inline style, so that its policy can allow exactly
// that style (by hash or otherwise).
import { escapeMarkup } from './escape-markup';

export type HtmlDocument = {
  title: string;
  /** More of the head (meta, style), already markup. */
  head?: string;
  /** Attributes of <body> after its name (mails style it inline), already markup. */
  bodyAttributes?: string;
  body: string;
};

export function htmlDocument({ title, head = '', bodyAttributes = '', body }: HtmlDocument): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}<title>${escapeMarkup(title)}</title>
</head>
<body${bodyAttributes}>
${body}
</body>
</html>
`;
}

export type HtmlPage = {
  title: string;
  /** The page's one inline style, written as given: a hash of it must still match. */
  style: string;
  /** Markup inside <main>, already escaped. */
  main: string;
  /** Pages for developers and tests ask search engines to stay away. */
  noindex?: boolean;
};

export function htmlPage({ title, style, main, noindex = false }: HtmlPage): string {
  const robots = noindex ? '<meta name="robots" content="noindex">\n' : '';
  return htmlDocument({ title, head: `${robots}<style>${style}</style>\n`, body: `<main>\n${main}\n</main>` });
}
