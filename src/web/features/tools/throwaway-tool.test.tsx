// A throwaway eleventh tool on the web (issue 56): "Sketch Maker" (test/fixtures/throwaway-tool/),
// appended to the contract's list (tool-list.ts) and the web registry, the two lists a tool joins
// (and its request schema to those /developers reads, found by its folder for a real tool). Everything
// else the web shows of a tool follows from them: its menu item, its route and page, its price, its
// reference and example call on /developers, its card and the count on the landing page.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sketchMaker } from '../../../../test/fixtures/throwaway-tool/contract';

// The web tests share one module graph (vitest.config.ts: isolate false), where the app's modules
// are loaded already, without these mocks: this file loads its own, after forgetting those, and
// forgets its own when done, so that no other file sees the eleventh tool.
const app = async () => {
  const [testUtils, fakeApi, toolApi] = await Promise.all([
    import('../../app/test-utils'),
    import('../../test-support/fake-api'),
    import('./tool-api'),
  ]);
  return { ...testUtils, ...fakeApi, ...toolApi };
};
let loaded: Awaited<ReturnType<typeof app>>;
const renderApp = (path: string) => loaded.renderApp(path);
const installFakeApi = (...args: Parameters<typeof loaded.installFakeApi>) => loaded.installFakeApi(...args);
const signedInRoutes = () => loaded.signedInRoutes();
const signedOutRoutes = () => loaded.signedOutRoutes();

beforeAll(async () => {
  vi.resetModules();
  loaded = await app();
});

afterAll(() => {
  vi.resetModules();
});

vi.mock('../../../contract/tool-list', async (importActual) => {
  const actual = await importActual<typeof import('../../../contract/tool-list')>();
  const { sketchMaker: definition } = await import('../../../../test/fixtures/throwaway-tool/contract');
  return { TOOL_LIST: [...actual.TOOL_LIST, definition] };
});

// The real web registry lists the ten tools' modules, which its check against the (now eleven)
// contract tools would refuse: here it keeps those it has, and the mock of ./registry appends the eleventh.
vi.mock('../../../contract/tools', async (importActual) => {
  const actual = await importActual<typeof import('../../../contract/tools')>();
  return {
    ...actual,
    inToolOrder: <M extends { id: string }>(modules: readonly M[]) =>
      actual.TOOL_IDS.flatMap((id) => modules.filter((module) => module.id === id)),
  };
});

vi.mock('../developers/request-schemas', async (importActual) => {
  const actual = await importActual<typeof import('../developers/request-schemas')>();
  const { request } = await import('../../../../test/fixtures/throwaway-tool/request');
  return { REQUEST_SCHEMAS: { ...actual.REQUEST_SCHEMAS, 'sketch-maker': request } };
});

vi.mock('./registry', async (importActual) => {
  const actual = await importActual<typeof import('./registry')>();
  const { sketchMakerWeb } = await import('../../../../test/fixtures/throwaway-tool/web');
  return { ...actual, WEB_TOOLS: [...actual.WEB_TOOLS, sketchMakerWeb] };
});

beforeEach(() => {
  loaded.setViewportWidth(1280);
  loaded.forgetToolsInfo();
});

afterEach(() => {
  loaded.forgetToolsInfo();
  vi.unstubAllGlobals();
  loaded.setViewportWidth(1024);
});

describe('an eleventh tool, added to the two lists only', () => {
  it('has its page at its route: its title, summary and price, and its action', async () => {
    installFakeApi(signedInRoutes());
    renderApp(sketchMaker.route);
    await screen.findByRole('heading', { level: 1, name: sketchMaker.title }, { timeout: 15_000 });
    expect(screen.getByText(sketchMaker.summary)).toBeTruthy();
    expect(screen.getByTestId('cost-chip').textContent).toBe('3 tokens per use');
    expect(screen.getByRole('button', { name: /^Sketch/ })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Sketch Maker · Picture Palette'));
  });

  it('is in the menu, after the ten, and its item opens its page', async () => {
    installFakeApi(signedInRoutes());
    renderApp('/colorizer');
    await screen.findByRole('heading', { level: 1, name: 'Colorizer' }, { timeout: 15_000 });
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    const labels = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    // Right after the last of the ten tools, before the account's pages.
    expect(labels[labels.indexOf('Image Analyzer') + 1]).toBe('Sketch Maker');
    fireEvent.click(within(nav).getByRole('link', { name: 'Sketch Maker' }));
    await screen.findByRole('heading', { level: 1, name: 'Sketch Maker' }, { timeout: 15_000 });
  });

  it('is on /developers: its endpoint, price, inputs and an example call', async () => {
    installFakeApi(signedOutRoutes());
    renderApp('/developers');
    await screen.findByRole('heading', { level: 1, name: 'Picture Palette API' }, { timeout: 15_000 });
    const section = screen.getByRole('region', { name: 'Sketch Maker' });
    expect(within(section).getByText('POST /api/make-sketch')).toBeTruthy();
    expect(section.textContent).toContain('3 tokens per request');
    expect(within(screen.getByRole('list', { name: 'Sketch Maker inputs' })).getByText('image')).toBeTruthy();
    const example = within(section).getByText('Sketch Maker example').closest('figure')?.textContent;
    expect(example).toContain(`${window.location.origin}/api/make-sketch`);
    expect(example).toContain('-F "image=@photo.jpg"');
    expect(screen.getByText(/tools from your code/).textContent).toContain('The eleven tools from your code');
  });

  it('has its card on the landing page, which counts eleven tools', async () => {
    installFakeApi(signedOutRoutes());
    renderApp('/');
    await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 });
    const section = screen.getByRole('region', { name: 'Make More For Cheaper' });
    expect(within(section).getByRole('heading', { level: 3, name: 'Eleven tools. One token balance.' })).toBeTruthy();
    const card = within(section).getByRole('link', { name: /Sketch Maker/ });
    expect(card.getAttribute('href')).toBe('/sketch-maker');
    expect(card.textContent).toContain('3 tokens per use');
  });
});
