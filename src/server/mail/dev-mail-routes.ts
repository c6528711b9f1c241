// /dev/mail: a browser view of the development outbox. Mounted only when the outbox is the mailer
// outside production, so a developer can open verification and reset links without SMTP.
import { type Context, Hono } from 'hono';
import type { Database } from '../db/client';
import { escapeMarkup as e } from '../markup/escape-markup';
import { htmlPage } from '../markup/html-page';
import { getOutboxMessage, listOutbox, type OutboxMessage } from './outbox-mailer';

const LIST_LIMIT = 50;
const SANDBOX = 'allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation';

/**
 * The outbox pages' own policy: their inline style, and the mails' inline styles in the preview
 * frame (a srcdoc frame inherits its page's policy). Nothing runs scripts; a mail opened on its
 * own gets the stricter sandbox below.
 */
const DEV_MAIL_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function devMailRoutes(database: Database) {
  return new Hono()
    .use('*', async (c, next) => {
      c.header('Content-Security-Policy', DEV_MAIL_POLICY);
      await next();
    })
    .get('/', async (c) => {
      const messages = await listOutbox(database, { limit: LIST_LIMIT });
      const base = mountPath(c.req.path, 0);
      const items = messages
        .map(
          (m) => `<li><a class="card" href="${e(`${base}/${m.id}`)}">
<span class="meta"><time datetime="${e(m.createdAt.toISOString())}">${e(formatTime(m.createdAt))}</time> &middot; ${e(m.to)}</span>
<span class="subject">${e(m.subject)}</span>
</a></li>`,
        )
        .join('\n');
      const body = messages.length
        ? `<ul class="list">\n${items}\n</ul>`
        : '<p class="empty">No mails yet. Sign up or ask for a password reset and they appear here.</p>';
      return c.html(page('Outbox', `<h1>Outbox</h1>\n${NOTE}\n${body}`));
    })
    .get('/:id/html', async (c) => {
      const message = await getOutboxMessage(database, c.req.param('id'));
      if (!message) return notFound(c, mountPath(c.req.path, 2));
      // Served from the app's origin: the CSP sandbox keeps any script in it from running there.
      c.header('Content-Security-Policy', `sandbox ${SANDBOX}`);
      return c.html(message.html);
    })
    .get('/:id', async (c) => {
      const message = await getOutboxMessage(database, c.req.param('id'));
      const base = mountPath(c.req.path, 1);
      if (!message) return notFound(c, base);
      return c.html(page(message.subject, viewBody(message, base)));
    });
}

const NOTE = '<p class="note">Development outbox: mails are stored here instead of being sent.</p>';

/**
 * Where these routes are mounted (e.g. /dev/mail), from the request path without its last
 * `segments` segments: links stay right whatever the mount point and with or without a trailing slash.
 */
function mountPath(path: string, segments: number): string {
  let base = path.replace(/\/+$/, '');
  for (let i = 0; i < segments; i++) base = base.replace(/\/[^/]*$/, '');
  return base;
}

function viewBody(m: OutboxMessage, base: string): string {
  return `<p><a href="${e(`${base}/`)}">&larr; All mails</a></p>
<h1>${e(m.subject)}</h1>
<dl class="headers">
<dt>To</dt><dd>${e(m.to)}</dd>
<dt>Time</dt><dd><time datetime="${e(m.createdAt.toISOString())}">${e(formatTime(m.createdAt))}</time></dd>
</dl>
<p class="links"><a href="${e(`${base}/${m.id}/html`)}" target="_blank" rel="noopener">Open the HTML on its own</a></p>
<iframe title="HTML version" sandbox="${SANDBOX}" srcdoc="${e(withTopTarget(m.html))}"></iframe>
<h2>Text version</h2>
<pre>${e(m.text)}</pre>`;
}

/** Links clicked in the preview open in this tab, not inside the (script-less) frame. */
function withTopTarget(html: string): string {
  const base = '<base target="_top">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return base + html;
  const end = head.index + head[0].length;
  return html.slice(0, end) + base + html.slice(end);
}

function notFound(c: Context, base: string) {
  const body = `<p><a href="${e(`${base}/`)}">&larr; All mails</a></p>
<h1>Mail not found</h1>
<p>There is no mail with this id in the outbox.</p>`;
  return c.html(page('Mail not found', body), 404);
}

function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function page(title: string, body: string): string {
  return htmlPage({ title: `${title} · Dev mail · Picture Palette`, style: STYLE, main: body, noindex: true });
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f4f3fb;color:#1f1b3a;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
main{max-width:760px;margin:0 auto;padding:24px 16px 48px}
h1{font-size:1.5rem;line-height:1.3;margin:0 0 8px;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:28px 0 8px}
a{color:#5b4bd6}
.note{margin:0 0 20px;padding:10px 14px;border-radius:10px;background:#ece9ff;color:#3d347f;font-size:.9rem}
.list{list-style:none;margin:0;padding:0;display:grid;gap:10px}
.card{display:block;padding:14px 16px;border-radius:12px;background:#fff;text-decoration:none;color:inherit;box-shadow:0 1px 2px rgba(31,27,58,.08);border:1px solid #e6e4f2}
.card:hover,.card:focus-visible{border-color:#6c5ce7}
.meta{display:block;font-size:.85rem;color:#6b6880;overflow-wrap:anywhere}
.subject{display:block;font-weight:600;overflow-wrap:anywhere}
.empty{color:#6b6880}
.headers{display:grid;grid-template-columns:auto 1fr;gap:2px 12px;margin:0 0 12px;font-size:.9rem}
.headers dt{color:#6b6880}
.headers dd{margin:0;overflow-wrap:anywhere}
.links{font-size:.9rem;margin:0 0 12px}
iframe{display:block;width:100%;height:640px;border:1px solid #e6e4f2;border-radius:12px;background:#fff}
pre{margin:0;padding:14px 16px;border-radius:12px;background:#fff;border:1px solid #e6e4f2;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85rem}
`;
