import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../../test-support/fake-api';
import { AuthProvider } from '../auth/AuthProvider';
import { LandingPage } from './LandingPage';

function renderLanding() {
  installFakeApi();
  const Page = () => (
    <AuthProvider>
      <LandingPage />
    </AuthProvider>
  );
  const router = createMemoryRouter([{ path: '/', Component: Page }], { initialEntries: ['/'] });
  return render(<RouterProvider router={router} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('LandingPage', () => {
  it('has a hero with a headline, tagline, four benefits and a call to action', () => {
    renderLanding();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Every image tool you need, in one palette.');
    const hero = screen.getByRole('region', { name: 'Every image tool you need, in one palette.' });
    const benefits = within(hero).getAllByRole('listitem');
    expect(benefits).toHaveLength(4);
    expect(benefits.at(-1)?.textContent).toContain('tokens never expire');
    expect(within(hero).getByRole('link', { name: 'Explore the tools' }).getAttribute('href')).toBe('/text-to-pic');
  });

  it('lists the ten tools with their prices, each linking to its page', () => {
    renderLanding();
    const section = screen.getByRole('region', { name: 'Ten tools. One token balance.' });
    const links = within(section).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/text-to-pic',
      '/metamorphose',
      '/colorizer',
      '/background-remover',
      '/creative-upscale',
      '/face-fixer',
      '/text-lab',
      '/background-swap',
      '/image-upscaler',
      '/image-analyzer',
    ]);
    const upscaler = within(section).getByRole('link', { name: /Creative Upscaler/ });
    expect(upscaler.textContent).toContain('70 tokens per use');
    expect(within(section).getAllByRole('heading', { level: 3 })).toHaveLength(10);
  });

  it('has a footer with the copyright', () => {
    renderLanding();
    expect(within(screen.getByRole('contentinfo')).getByText(/© \d{4} Picture Palette/)).toBeTruthy();
  });
});
