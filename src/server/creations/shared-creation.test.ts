import { describe, expect, it } from 'vitest';
import type { SharedCreation } from '../../contract/creations';
import { sharedPreviewHead } from './shared-creation';

const TOKEN = 'Zr4kP9mWq2xYt7vB3nLs8cDfZr4kP9mW';
const colorized: SharedCreation = {
  tool: 'colorizer',
  createdAt: '2026-11-23T12:00:00.000Z',
  outputs: [{ url: `/api/shared/${TOKEN}/files/0`, width: 800, height: 600, format: 'webp' }],
  keywords: null,
  colors: null,
};

describe('sharedPreviewHead', () => {
  it('writes Open Graph and Twitter card tags with absolute URLs of the page and its picture', () => {
    const { title, head } = sharedPreviewHead(colorized, 'https://pp.example/', TOKEN);
    expect(title).toBe('Made with Colorizer · Picture Palette');
    expect(head.split('\n')).toEqual([
      '<meta name="robots" content="noindex">',
      `<link rel="canonical" href="https://pp.example/shared/${TOKEN}">`,
      '<meta property="og:type" content="website">',
      '<meta property="og:site_name" content="Picture Palette">',
      '<meta property="og:title" content="Made with Colorizer">',
      '<meta property="og:description" content="Shared from Picture Palette: made with Colorizer on November 23, 2026.">',
      `<meta property="og:url" content="https://pp.example/shared/${TOKEN}">`,
      `<meta property="og:image" content="https://pp.example/api/shared/${TOKEN}/files/0">`,
      '<meta property="og:image:width" content="800">',
      '<meta property="og:image:height" content="600">',
      '<meta property="og:image:alt" content="Made with Colorizer: result 1">',
      '<meta name="twitter:card" content="summary_large_image">',
      '<meta name="twitter:title" content="Made with Colorizer">',
      '<meta name="twitter:description" content="Shared from Picture Palette: made with Colorizer on November 23, 2026.">',
      `<meta name="twitter:image" content="https://pp.example/api/shared/${TOKEN}/files/0">`,
    ]);
  });

  it('escapes every value it writes', () => {
    const { head } = sharedPreviewHead(colorized, 'https://pp.example/"><script>alert(1)</script>', TOKEN);
    expect(head).not.toContain('<script>');
    expect(head).toContain('content="https://pp.example/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;/shared/');
  });

  it('an analysis, with no picture, gets the small card and no image', () => {
    const analysis: SharedCreation = { ...colorized, tool: 'image-analyzer', outputs: [] };
    const { head } = sharedPreviewHead(analysis, 'https://pp.example', TOKEN);
    expect(head).toContain('<meta name="twitter:card" content="summary">');
    expect(head).not.toContain('image"');
    expect(head).not.toContain('og:image');
  });
});
