// The head and frame of the server's own HTML pages (the test checkout, the dev mail outbox): one
// inline style each, so that a page's policy can allow exactly that style (by hash or otherwise).
import { escapeMarkup } from './escape-markup';

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
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${noindex ? '<meta name="robots" content="noindex">\n' : ''}<title>${escapeMarkup(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`;
}
