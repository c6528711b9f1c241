// A Vite plugin: index.html preloads the one Inter file every page paints with (Latin, variable
// weight), so the browser fetches it alongside the stylesheet instead of after it. The other
// subsets (Cyrillic, Greek, Vietnamese, Latin Extended) keep loading by unicode-range, only when a
// page shows such a character.
import type { Plugin } from 'vite';

const LATIN_INTER = /^assets\/inter-latin-wght-normal-[\w-]+\.woff2$/;

export function preloadFont(): Plugin {
  return {
    name: 'picture-palette:preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const file = Object.keys(bundle ?? {}).find((name) => LATIN_INTER.test(name));
        if (!file) throw new Error('the Latin Inter font is not in the build: update scripts/preload-font.ts');
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `/${file}`, as: 'font', type: 'font/woff2', crossorigin: '' },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}
