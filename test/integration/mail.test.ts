import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quietLogger } from '../../src/server/log';
import { createMailer } from '../../src/server/mail/create-mailer';
import { devMailRoutes } from '../../src/server/mail/dev-mail-routes';
import { createOutboxMailer, getOutboxMessage, listOutbox } from '../../src/server/mail/outbox-mailer';
import { createSmtpMailer } from '../../src/server/mail/smtp-mailer';
import { verificationMail } from '../../src/server/mail/templates';
import { createTestDatabase, type TestDatabase, testConfig } from '../support/test-backend';

type Received = { from: string | undefined; to: string[]; raw: string };

/** The decoded text/plain and text/html parts of a multipart/alternative message. */
function mimeParts(raw: string): Record<string, string> {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) throw new Error('not a multipart message');
  const parts: Record<string, string> = {};
  for (const chunk of raw.split(`--${boundary}`).slice(1, -1)) {
    const split = chunk.indexOf('\r\n\r\n');
    const headers = chunk.slice(0, split);
    const body = chunk.slice(split + 4);
    const type = /content-type:\s*([^;\r\n]+)/i.exec(headers)?.[1]?.trim().toLowerCase() ?? '';
    const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(headers)?.[1]?.toLowerCase();
    parts[type] =
      encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : encoding === 'quoted-printable'
          ? Buffer.from(
              body
                .replace(/=\r\n/g, '')
                .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            ).toString('utf8')
          : body;
  }
  return parts;
}

describe('SMTP mailer', () => {
  let server: SMTPServer;
  let port: number;
  const received: Received[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers the verification mail with the link in both the text and the HTML part', async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, 'Picture Palette <no-reply@pp.test>');
    expect(mailer.kind).toBe('smtp');
    const url = 'http://localhost:3000/verify?token=tok_5mtp';
    await mailer.send(verificationMail({ to: 'ada@example.com', url }));

    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail?.from).toBe('no-reply@pp.test');
    expect(mail?.to).toEqual(['ada@example.com']);
    expect(mail?.raw).toMatch(/^Subject: Verify your email for Picture Palette\r$/m);
    expect(mail?.raw).toMatch(/^To: ada@example\.com\r$/m);
    const parts = mimeParts(mail?.raw ?? '');
    expect(parts['text/plain']).toContain(url);
    expect(parts['text/html']).toContain(`href="${url}"`);
  });

  it('fails at once, with the refused connection, when nothing listens on the port', async () => {
    const probe = net.createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));

    const mailer = createSmtpMailer(`smtp://127.0.0.1:${closedPort}`, 'no-reply@pp.test');
    await expect(mailer.send(verificationMail({ to: 'a@b.test', url: 'http://x.test/v' }))).rejects.toMatchObject({
      code: 'ESOCKET',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('gives up on a server that accepts the connection but never greets', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const silentPort = (silent.address() as AddressInfo).port;
    try {
      const mailer = createSmtpMailer(`smtp://127.0.0.1:${silentPort}`, 'no-reply@pp.test');
      // By our greeting timeout (5 s): nodemailer's own (30 s) would outlast the test's (20 s).
      await expect(mailer.send(verificationMail({ to: 'a@b.test', url: 'http://x.test/v' }))).rejects.toMatchObject({
        code: 'ETIMEDOUT',
        message: expect.stringMatching(/greeting/i),
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 20_000);
});

describe('outbox mailer and /dev/mail', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('createMailer picks the outbox without SMTP_URL and SMTP with it', () => {
    expect(createMailer(testConfig(), database, quietLogger()).kind).toBe('outbox');
    expect(createMailer(testConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }), database, quietLogger()).kind).toBe('smtp');
  });

  it('stores messages and lists them newest first', async () => {
    const mailer = createOutboxMailer(database, quietLogger());
    await mailer.send({ to: 'first@example.com', subject: 'First', html: '<p>one</p>', text: 'one' });
    await mailer.send({ to: 'second@example.com', subject: 'Second', html: '<p>two</p>', text: 'two' });

    const list = await listOutbox(database, { limit: 10 });
    expect(list.map((m) => m.subject)).toEqual(['Second', 'First']);
    expect(list[0]).toMatchObject({ to: 'second@example.com', html: '<p>two</p>', text: 'two' });
    expect(list[0]?.createdAt).toBeInstanceOf(Date);
    expect(await listOutbox(database, { limit: 1 })).toHaveLength(1);

    const id = list[1]?.id ?? '';
    expect(await getOutboxMessage(database, id)).toMatchObject({ id, subject: 'First' });
    expect(await getOutboxMessage(database, 'not-a-uuid')).toBeNull();
    expect(await getOutboxMessage(database, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('logs the links of the text body so they show in the console', async () => {
    const lines: { message: string; fields?: Record<string, unknown> }[] = [];
    const logger = quietLogger();
    logger.info = (message, fields) => lines.push({ message, fields });
    const mail = verificationMail({ to: 'log@example.com', url: 'http://localhost:3000/verify?token=tok_log' });
    await createOutboxMailer(database, logger).send(mail);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.fields).toMatchObject({
      to: 'log@example.com',
      subject: 'Verify your email for Picture Palette',
      links: ['http://localhost:3000/verify?token=tok_log'],
    });
  });

  it('serves the list, a message, its raw HTML and 404s under a mount point', async () => {
    const mailer = createOutboxMailer(database, quietLogger());
    await mailer.send({
      to: 'mallory@example.com',
      subject: '<script>alert("x")</script> Hi',
      html: '<p>evil</p>',
      text: 'a & b',
    });
    const url = 'http://localhost:3000/verify?token=tok_dev';
    // Newest first is by creation time; PGlite's clock can give two sends in one millisecond the
    // same time, and then the order between them is arbitrary.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await mailer.send(verificationMail({ to: 'dev@example.com', url }));
    const [newest] = await listOutbox(database, { limit: 1 });
    const id = newest?.id ?? '';

    const app = new Hono().route('/dev/mail', devMailRoutes(database));

    const list = await app.request('/dev/mail');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^text\/html/);
    const listHtml = await list.text();
    expect(listHtml).toContain('Development outbox: mails are stored here instead of being sent.');
    expect(listHtml).toContain(`href="/dev/mail/${id}"`);
    expect(listHtml).toContain('Verify your email for Picture Palette');
    expect(listHtml).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Hi');
    expect(listHtml).not.toContain('<script>');
    expect(listHtml.indexOf('Verify your email')).toBeLessThan(listHtml.indexOf('&lt;script&gt;'));

    const view = await app.request(`/dev/mail/${id}`);
    expect(view.status).toBe(200);
    const viewHtml = await view.text();
    expect(viewHtml).toContain(
      'sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"',
    );
    expect(viewHtml).toMatch(/<iframe [^>]*srcdoc="&lt;!DOCTYPE html&gt;/);
    expect(viewHtml).toContain(`<pre>${newest?.text.replace(/'/g, '&#39;')}</pre>`);
    expect(viewHtml).toContain('href="/dev/mail/"');

    const raw = await app.request(`/dev/mail/${id}/html`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^text\/html/);
    expect(raw.headers.get('content-security-policy')).toMatch(/^sandbox /);
    expect(await raw.text()).toBe(newest?.html);
    expect(newest?.html).toContain(`href="${url}"`);

    for (const path of ['/dev/mail/not-a-uuid', '/dev/mail/00000000-0000-4000-8000-000000000000', '/dev/mail/x/html']) {
      const missing = await app.request(path);
      expect(missing.status, path).toBe(404);
      expect(await missing.text()).toContain('Mail not found');
    }
  });
});
