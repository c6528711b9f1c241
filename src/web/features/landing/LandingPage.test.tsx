import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toolCountInWords } from '../../../contract/tool-count';
import { TOOLS } from '../../../contract/tools';
import { renderApp, setViewportWidth } from '../../app/test-utils';
import { forgetPackages } from '../../lib/purchases/purchase-api';
import { installFakeApi } from '../../test-support/fake-api';

async function openLanding() {
  forgetPackages();
  const view = renderApp('/');
  await screen.findByRole('heading', { level: 1 });
  return view;
}

/** The page's top-level blocks, in order: each section by its heading, each wave as 'wave'. */
function blocks(): string[] {
  return [...document.querySelectorAll('main > *')].map((element) => {
    if (element.getAttribute('data-testid') === 'wave') return 'wave';
    const heading = element.querySelector('h1, h2');
    return `${heading?.textContent}${element.querySelector(':scope > [data-testid="wave"]') ? ' + wave' : ''}`;
  });
}

afterEach(() => {
  setViewportWidth(1024);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('LandingPage', () => {
  it('stacks the sections in the order of the spec', async () => {
    await openLanding();
    expect(blocks()).toEqual([
      'Every image tool you need, in one palette. + wave',
      'Made in the palette',
      'wave',
      'Make MoreFor Cheaper',
      'Plans & Pricing',
      'Frequently asked questions',
      'Your next picture is a sentence away.',
    ]);
  });

  it('has a hero with a headline, tagline, four benefits and a call to action', async () => {
    await openLanding();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Every image tool you need, in one palette.');
    const hero = screen.getByRole('region', { name: 'Every image tool you need, in one palette.' });
    const benefits = hero.querySelectorAll('.pp-benefits__item');
    expect(benefits).toHaveLength(4);
    expect(benefits[3]?.textContent).toContain('tokens never expire');
    expect(within(hero).getByRole('link', { name: 'Explore the tools' }).getAttribute('href')).toBe('/text-to-pic');
  });

  it('shows the twelve gallery images, lazily loaded and described', async () => {
    await openLanding();
    const images = within(screen.getByTestId('gallery')).getAllByRole('img');
    expect(images.map((image) => image.getAttribute('src'))).toEqual(
      Array.from({ length: 12 }, (_, i) => `/gallery/${i + 1}.webp`),
    );
    for (const image of images) {
      expect(image.getAttribute('loading')).toBe('lazy');
      expect(image.getAttribute('alt')?.length).toBeGreaterThan(10);
    }
  });

  it('offers every gallery image in AVIF and WebP at two widths, sized to its column', async () => {
    await openLanding();
    for (const image of within(screen.getByTestId('gallery')).getAllByRole('img')) {
      const n = image.getAttribute('src')?.match(/(\d+)\.webp$/)?.[1];
      const avif = image.parentElement?.querySelector('source[type="image/avif"]');
      expect(avif?.getAttribute('srcset')).toBe(`/gallery/${n}-320.avif 320w, /gallery/${n}.avif 640w`);
      expect(image.getAttribute('srcset')).toBe(`/gallery/${n}-320.webp 320w, /gallery/${n}.webp 640w`);
      expect(image.getAttribute('sizes')).toMatch(/50vw$/);
      expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['640', '640']);
    }
  });

  it('shows six different gallery images at phone width', async () => {
    setViewportWidth(390);
    await openLanding();
    const sources = within(screen.getByTestId('gallery'))
      .getAllByRole('img')
      .map((image) => image.getAttribute('src'));
    expect(sources).toHaveLength(6);
    expect(new Set(sources).size).toBe(6);
    for (const src of sources) expect(src).toMatch(/^\/gallery\/([1-9]|1[0-2])\.webp$/);
  });

  it('promises Save Time, Save Money and Photo Ready, then lists every tool with its price', async () => {
    await openLanding();
    const section = screen.getByRole('region', { name: 'Make More For Cheaper' });
    expect(
      within(section)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual([
      'Save Time',
      'Save Money',
      'Photo Ready',
      `${toolCountInWords({ capital: true })} tools. One token balance.`,
    ]);
    const links = within(section).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(TOOLS.map((tool) => tool.route));
    expect(within(section).getByRole('link', { name: /Creative Upscaler/ }).textContent).toContain('70 tokens per use');
  });

  it('prices the three packages under a single, selected Tokens tab', async () => {
    await openLanding();
    const pricing = screen.getByRole('region', { name: 'Plans & Pricing' });
    const tabs = within(pricing).getAllByRole('tab');
    expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('aria-selected')])).toEqual([['Tokens', 'true']]);
    const cards = within(pricing).getAllByRole('article');
    expect(cards.map((card) => card.querySelector('.pp-package__price')?.textContent)).toEqual([
      '$5.00/package',
      '$10.00/package',
      '$20.00/package',
    ]);
    expect(within(cards[0] as HTMLElement).getByText('Upscale Photos')).toBeTruthy();
    expect(within(pricing).getAllByRole('button', { name: 'Buy Tokens' })).toHaveLength(3);
  });

  it('sends a visitor who clicks Buy Tokens back to the sign-in form at the top', async () => {
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    await openLanding();
    const buy = within(screen.getByRole('region', { name: 'Plans & Pricing' })).getAllByRole('button', {
      name: 'Buy Tokens',
    })[1] as HTMLElement;
    await waitFor(() => expect(buy.hasAttribute('disabled')).toBe(false));
    fireEvent.click(buy);
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
  });

  it('opens and closes each of the twelve questions, with + and −', async () => {
    await openLanding();
    const faq = screen.getByRole('region', { name: 'Frequently asked questions' });
    const toggles = within(faq).getAllByRole('button');
    expect(toggles).toHaveLength(12);
    const commercial = within(faq).getByRole('button', { name: 'Can I use the images commercially?' });
    const answer = document.getElementById(commercial.getAttribute('aria-controls') as string) as HTMLElement;
    expect(commercial.getAttribute('aria-expanded')).toBe('false');
    expect(commercial.textContent).toContain('+');
    expect(answer.hidden).toBe(true);

    fireEvent.click(commercial);
    expect(commercial.getAttribute('aria-expanded')).toBe('true');
    expect(commercial.textContent).toContain('\u2212');
    expect(answer.hidden).toBe(false);
    expect(answer.textContent).toContain('may be used commercially');
    expect(answer.textContent).toContain('unless they contain trademarks or logos');

    fireEvent.click(commercial);
    expect(commercial.textContent).toContain('+');
    expect(answer.hidden).toBe(true);
  });

  it('says what the spec’s FAQ statements say', async () => {
    await openLanding();
    const text = screen.getByTestId('faq').textContent ?? '';
    expect(text).toContain('One token makes one Text to Pic image, so each picture costs 1 cent');
    expect(text).toContain('Each tool states its own cost');
    expect(text).toContain('Creative Upscaler 70 tokens per use');
    expect(text).toContain('Tokens do not expire, and unused tokens roll over');
    expect(text).toContain('Square (1:1)');
    expect(text).toContain('Mobile (9:16)');
    expect(text).toContain('Widescreen (16:9)');
  });

  it('says that results are what is paid for, and that a free preview takes no tokens', async () => {
    await openLanding();
    const text = screen.getByTestId('faq').textContent ?? '';
    expect(text).toContain('You only pay for results.');
    expect(text).toContain(
      'Where a tool shows “Free preview: a labelled sample, not AI”, its sample is free: it takes no tokens.',
    );
  });

  it('scrolls back to the top from the closing call to action', async () => {
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    installFakeApi();
    await openLanding();
    fireEvent.click(screen.getByRole('button', { name: 'Create Your Pics Now' }));
    expect(scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 0 }));
  });

  it('has a footer with the copyright', async () => {
    await openLanding();
    expect(within(screen.getByRole('contentinfo')).getByText(/© \d{4} Picture Palette/)).toBeTruthy();
  });
});
