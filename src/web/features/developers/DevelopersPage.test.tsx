import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { API_ERROR_STATUSES } from '../../../contract/api-errors';
import { TOOLS } from '../../../contract/tools';
import { WEBHOOK_EVENT_TYPES } from '../../../contract/webhooks';
import { renderApp } from '../../app/test-utils';
import { installFakeApi, signedOutRoutes } from '../../test-support/fake-api';
import { localServerTools, toolsInfoAnswer } from '../../test-support/tool-fixtures';
import { batchExample, curlExample, fetchExample, resultFileExample, webhookExample } from './examples';
import { REQUEST_SCHEMAS } from './request-schemas';

/** The code of a tool's example call, under its caption "<title> example". */
const exampleOf = (scope: Pick<typeof screen, 'getByText'>, title: string) =>
  scope.getByText(`${title} example`).closest('figure')?.querySelector('code')?.textContent;

async function openDevelopers() {
  const view = renderApp('/developers');
  await screen.findByRole('heading', { level: 1, name: 'Picture Palette API' });
  return view;
}

describe('DevelopersPage', () => {
  it('has the guide in order: a key, the first call, the tools, errors, rate limits, webhooks, batches, OpenAPI', async () => {
    await openDevelopers();
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'Get a key',
      'Your first call',
      'Tools',
      'Errors',
      'Rate limits',
      'Webhooks',
      'Batches',
      'Result files',
      'OpenAPI',
    ]);
    expect(document.title).toContain('Developers');
    expect(screen.getAllByRole('link', { name: '/api/openapi.json' })[0]?.getAttribute('href')).toBe(
      '/api/openapi.json',
    );
  });

  it('shows the first call with curl (multipart, Accept: image/png, saved as PNG) and with fetch, on this origin', async () => {
    await openDevelopers();
    const firstCall = within(screen.getByRole('region', { name: 'Your first call' }));
    const curl = firstCall.getByText(/^curl /);
    expect(curl.textContent).toContain(`${window.location.origin}/api/remove-background`);
    expect(curl.textContent).toContain('-H "Accept: image/png"');
    expect(curl.textContent).toContain('-F "image=@photo.jpg"');
    expect(curl.textContent).toContain('-o no-background.png');
    expect(curl.textContent).toContain('Authorization: Bearer $PP_API_KEY');
    const fetchCall = firstCall.getByText(/await fetch\(/);
    expect(fetchCall.textContent).toContain("'Content-Type': 'application/json'");
  });

  it('lists every tool with its route, cost, inputs and limits from the contract', async () => {
    await openDevelopers();
    for (const tool of TOOLS) {
      const section = screen.getByRole('region', { name: tool.title });
      expect(within(section).getByText(`POST /api${tool.apiPath}`)).toBeTruthy();
      expect(section.textContent).toContain(`${tool.cost} token${tool.cost === 1 ? '' : 's'} per ${tool.costPer}`);
      expect(within(section).getByText('webhook')).toBeTruthy();
      expect(within(section).queryByText('userId')).toBeNull();
    }
    const textToPic = screen.getByRole('list', { name: 'Text to Pic inputs' });
    expect(textToPic.textContent).toContain('text, up to 2,000 characters');
    expect(textToPic.textContent).toContain('one of 1:1, 9:16, 16:9');
    expect(textToPic.textContent).toContain('optional (default 1:1)');
    expect(textToPic.textContent).toContain('whole number from 1 to 4');
    expect(screen.getByRole('list', { name: 'Text to Pic limits' }).textContent).toContain('2,000 characters');
    const upscaler = screen.getByRole('list', { name: 'Image Upscaler limits' }).textContent;
    expect(upscaler).toContain('2048 x 2048 px at 2x');
    expect(upscaler).toContain('680 x 680 px at 6x');
    const metamorphose = screen.getByRole('list', { name: 'Metamorphose inputs' }).textContent;
    expect(metamorphose).toContain('main_face_image');
    // A bare .int() states no range (not the safe integers).
    expect(metamorphose).not.toContain('9007199254740991');
    expect(screen.getByRole('list', { name: 'Metamorphose limits' }).textContent).toContain('at most 5 MB');
  });

  it("shows every tool's example call with curl: its endpoint, the key and its fields, a file as @", async () => {
    await openDevelopers();
    const origin = window.location.origin;
    for (const tool of TOOLS) {
      const example = exampleOf(within(screen.getByRole('region', { name: tool.title })), tool.title);
      expect(example?.split(' \\\n  ')[0]).toBe(`curl -sS ${origin}/api${tool.apiPath}`);
      expect(example).toContain('-H "Authorization: Bearer $PP_API_KEY"');
      expect(example).toContain('-F "');
    }
    const textToPic = exampleOf(screen, 'Text to Pic');
    expect(textToPic).toContain('-F "prompt=A lighthouse on a cliff at dusk, watercolour"');
    expect(exampleOf(screen, 'Image Upscaler')).toContain('-F "image=@photo.jpg" \\\n  -F "scale=4"');
  });

  it('explains every error status, the rate-limit headers and the webhook signature with standardwebhooks', async () => {
    await openDevelopers();
    const errors = screen.getByRole('region', { name: 'Errors' });
    for (const status of Object.keys(API_ERROR_STATUSES)) expect(within(errors).getByText(status)).toBeTruthy();
    const limits = screen.getByRole('region', { name: 'Rate limits' }).textContent;
    for (const header of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']) {
      expect(limits).toContain(header);
    }
    const webhooks = screen.getByRole('region', { name: 'Webhooks' }).textContent;
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'whsec_', 'id.timestamp.body']) {
      expect(webhooks).toContain(header);
    }
    expect(webhooks).toContain("import { Webhook } from 'standardwebhooks';");
    expect(webhooks).toContain('webhook.verify(body');
  });
});

describe('the prices on /developers', () => {
  it("says each tool's price on this server: the local engine's Creative Upscaler at 1 token, a demo's as a free preview", async () => {
    installFakeApi({
      ...signedOutRoutes(),
      'GET /api/tools': {
        body: {
          tools: [
            ...toolsInfoAnswer('creative-upscaler', 'local', 1).body.tools,
            ...toolsInfoAnswer('colorizer', 'demo', 6).body.tools,
          ],
        },
      },
    });
    await openDevelopers();
    const creative = screen.getByRole('region', { name: 'Creative Upscaler' });
    await waitFor(() => expect(creative.textContent).toContain('1 token per request'));
    expect(creative.textContent).not.toContain('70 tokens');
    expect(screen.getByRole('region', { name: 'Colorizer' }).textContent).toContain('Free preview');
  });

  it('shows the prices a prerendered page carries, and says what a free preview is', async () => {
    // What the server puts on a prerendered page's root (server/pages/prerendered-pages.ts); /api/tools is not asked.
    const root = document.createElement('div');
    root.id = 'root';
    root.dataset.prerendered = '';
    root.dataset.tools = JSON.stringify(
      localServerTools({ 'creative-upscaler': 1, 'image-analyzer': 1, 'background-remover': 2 }).body,
    );
    document.body.append(root);
    try {
      const api = installFakeApi(signedOutRoutes());
      await openDevelopers();
      expect(screen.getByRole('region', { name: 'Creative Upscaler' }).textContent).toContain('1 token per request');
      expect(screen.getByRole('region', { name: 'Text to Pic' }).textContent).toContain('Free preview');
      expect(screen.getByRole('region', { name: 'Image Analyzer' }).textContent).toContain('1 token per request');
      expect(screen.getByRole('region', { name: 'Tools' }).textContent).toContain(
        'A tool marked “Free preview” answers with a labelled sample, not AI, that takes no tokens.',
      );
      expect(api.callsTo('GET /api/tools')).toEqual([]);
    } finally {
      root.remove();
    }
  });
});

describe('the examples and result files on /developers', () => {
  it('shows exactly the examples that e2e/developers-examples.test.ts runs, on this origin', async () => {
    await openDevelopers();
    const origin = window.location.origin;
    const shown = [...document.querySelectorAll('pre code')].map((block) => block.textContent);
    for (const example of [
      curlExample(origin, '/api/remove-background'),
      fetchExample(origin, '/api/remove-background'),
      webhookExample,
      batchExample(origin, 'background-remover'),
      resultFileExample(origin),
    ]) {
      expect(shown).toContain(example);
    }
  });

  it('says what a webhook delivery holds: the type, the timestamp and the job under data', async () => {
    await openDevelopers();
    const webhooks = screen.getByRole('region', { name: 'Webhooks' }).textContent;
    for (const type of WEBHOOK_EVENT_TYPES) expect(webhooks).toContain(type);
    expect(webhooks).toContain('in data, the job as GET /api/jobs/{id} shows it');
    expect(webhookExample).toContain('const job = event.data;');
  });

  it("says each tool's outputFormat and outputQuality as its schema takes them (Text to Pic: 33, 66 or 100)", async () => {
    await openDevelopers();
    const formats = screen.getByRole('list', { name: 'outputFormat by tool' }).textContent;
    for (const tool of TOOLS) {
      if ('outputFormat' in (REQUEST_SCHEMAS[tool.id]?.shape ?? {})) expect(formats).toContain(tool.title);
    }
    expect(formats).not.toContain('Image Analyzer');
    const qualities = within(screen.getByRole('list', { name: 'outputQuality by tool' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(qualities).toContain('Text to Pic: one of 33, 66, 100: the one its quality sets (low 33, med 66, high 100)');
    expect(qualities).toContain(
      'Metamorphose, Colorizer, Background Remover, Creative Upscaler, Fix a Face, Text Lab, Background Swap, Image Upscaler: whole number from 1 to 100',
    );
    expect(screen.getByRole('list', { name: 'Text to Pic inputs' }).textContent).toContain(
      'one of 33, 66, 100: the one its quality sets',
    );
  });
});

describe('the landing page footer', () => {
  it('links to /developers', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getByRole('link', { name: 'Developers' }).getAttribute('href')).toBe('/developers');
  });
});
