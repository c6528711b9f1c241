// A shared creation as anyone with its link sees it: the JSON of GET /api/shared/:token, and the
// link-preview tags (Open Graph, Twitter card) in the HTML the server answers for /shared/<token>,
// so that a pasted link shows the picture without running the app (crawlers run no scripts).

import type { SharedCreation } from '../../contract/creations';
import { SHARED_ROUTE_PREFIX } from '../../contract/creations';
import { formatOfType } from '../../contract/output-files';
import { toolById } from '../../contract/tools';
import type { AppDb } from '../db/client';
import { viewJob } from '../jobs/views/job-view';
import { escapeMarkup } from '../markup/escape-markup';
import { filesOfJobs } from './creations-repository';
import { findSharedJob, sharedFileUrl } from './sharing';

/** The shared creation behind `token`; null for a token that is not shared (any more). */
export async function readSharedCreation(db: AppDb, token: string): Promise<SharedCreation | null> {
  const job = await findSharedJob(db, token);
  if (!job) return null;
  const view = viewJob(job);
  const outputs = await filesOfJobs(db, [job.id]);
  const byId = new Map(outputs.map((f) => [f.id, f]));
  return {
    tool: view.tool,
    createdAt: view.createdAt,
    outputs: (view.output ?? []).flatMap((url, index) => {
      const file = byId.get(url.replace('/api/files/', ''));
      if (!file) return [];
      const format = formatOfType(file.contentType);
      return [{ url: sharedFileUrl(token, index), width: file.width, height: file.height, format }];
    }),
    keywords: view.keywords,
    colors: view.colors,
  };
}

const APP_NAME = 'Picture Palette';

const formatDay = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** The title and description a link preview shows (and the tab, before the app has run). */
export function sharedPreviewText(creation: SharedCreation) {
  const tool = toolById(creation.tool).title;
  return {
    title: `Made with ${tool}`,
    description: `Shared from ${APP_NAME}: made with ${tool} on ${formatDay(creation.createdAt)}.`,
  };
}

const NOINDEX = '<meta name="robots" content="noindex">';

/**
 * The head of /shared/<token>: kept out of search results always; for a live share, its link-preview
 * tags with absolute URLs (`appUrl` is the public origin). A revoked or unknown token gets none.
 */
export async function sharedPageHead(
  db: AppDb,
  appUrl: string,
  token: string,
): Promise<{ title: string | null; head: string }> {
  const creation = await readSharedCreation(db, token);
  return creation ? sharedPreviewHead(creation, appUrl, token) : { title: null, head: NOINDEX };
}

/** The link-preview head of a live share: every value escaped, every URL absolute. */
export function sharedPreviewHead(
  creation: SharedCreation,
  appUrl: string,
  token: string,
): { title: string; head: string } {
  const origin = appUrl.replace(/\/$/, '');
  const { title, description } = sharedPreviewText(creation);
  const image = creation.outputs[0];
  const pageUrl = `${origin}${SHARED_ROUTE_PREFIX}${token}`;
  const imageUrl = image ? `${origin}${image.url}` : null;
  const tags: [attribute: string, key: string, content: string | number | null | undefined][] = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', APP_NAME],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', pageUrl],
    ['property', 'og:image', imageUrl],
    ['property', 'og:image:width', image?.width],
    ['property', 'og:image:height', image?.height],
    ['property', 'og:image:alt', image ? `${title}: result 1` : null],
    // A picture shows large; an analysis (no picture) as the small card.
    ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
    ['name', 'twitter:image', imageUrl],
  ];
  const meta = tags
    .filter(([, , content]) => content !== null && content !== undefined && content !== '')
    .map(([attribute, key, content]) => `<meta ${attribute}="${key}" content="${escapeMarkup(String(content))}">`);
  return {
    title: `${title} · ${APP_NAME}`,
    head: [NOINDEX, `<link rel="canonical" href="${escapeMarkup(pageUrl)}">`, ...meta].join('\n'),
  };
}
