import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { API_ERROR_STATUSES } from '../../../contract/api-errors';
import { TOOLS } from '../../../contract/tools';
import { renderApp } from '../../app/test-utils';

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
    const curl = screen.getByText(/^curl /);
    expect(curl.textContent).toContain(`${window.location.origin}/api/remove-background`);
    expect(curl.textContent).toContain('-H "Accept: image/png"');
    expect(curl.textContent).toContain('-F "image=@photo.jpg"');
    expect(curl.textContent).toContain('-o no-background.png');
    expect(curl.textContent).toContain('Authorization: Bearer $PP_API_KEY');
    const fetchCall = screen.getByText(/await fetch\(/);
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

describe('the landing page footer', () => {
  it('links to /developers', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getByRole('link', { name: 'Developers' }).getAttribute('href')).toBe('/developers');
  });
});
