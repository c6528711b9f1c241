// What search engines ask for before the pages: /robots.txt and /sitemap.xml. Without them the
// app's shell answered both as HTML, which crawlers (and Lighthouse's SEO audit) reject.
import { ALL_ROUTES, ROUTES } from '../../contract/routes';

/** Every page a visitor can open signed out; User Settings needs an account, so crawlers skip it. */
export const PUBLIC_ROUTES = [...ALL_ROUTES.filter((route) => route !== ROUTES.userSettings), ROUTES.developers];

export const robotsTxt = (appUrl: string) =>
  `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: ${ROUTES.userSettings}\n\nSitemap: ${appUrl}/sitemap.xml\n`;

export const sitemapXml = (appUrl: string) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...PUBLIC_ROUTES.map((route) => `  <url><loc>${appUrl}${route === '/' ? '/' : route}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
