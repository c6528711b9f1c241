// Backgrounds drawn from the words of a description, for the local Background Swap: no image
// generator runs here, so a scene (beach, forest, city, studio...) and its colours are read from
// the text and drawn as SVG. Each output index gets its own seeded variation (sun, clouds, trees,
// light), so the images of one request differ while the same request always draws the same images.
import { createHash } from 'node:crypto';
import { parseHex, toHex } from '../analyze/oklab';

export type SceneKind = 'beach' | 'forest' | 'city' | 'mountains' | 'snow' | 'studio' | 'sky' | 'plain';
export type TimeOfDay = 'day' | 'sunset' | 'night';
export type Scene = { kind: SceneKind; time: TimeOfDay; colours: string[] };

/** Scene words, checked in this order: a "studio" beats the "sky" of a sky-blue studio, snow beats mountains. */
const SCENE_WORDS: [SceneKind, RegExp][] = [
  ['studio', /\b(studio|backdrop|portrait|plain|solid|office|indoor)\b/],
  ['beach', /\b(beach|sea|seaside|ocean|coast|shore|tropical|island|sand|waves?)\b/],
  ['forest', /\b(forest|woods?|jungle|trees?|park|garden|nature)\b/],
  ['city', /\b(city|town|urban|street|skyline|downtown|buildings?)\b/],
  ['snow', /\b(snow|snowy|winter|ice|icy|christmas|frozen)\b/],
  ['mountains', /\b(mountains?|hills?|alps|valley|canyon|desert)\b/],
  ['sky', /\b(sky|skies|clouds?|cloudy|sunset|sunrise|dusk|dawn|night|stars?|starry|space|galaxy|moon)\b/],
];

const TIME_WORDS: [TimeOfDay, RegExp][] = [
  ['night', /\b(night|midnight|stars?|starry|space|galaxy|moon|moonlit|dark)\b/],
  ['sunset', /\b(sunset|sunrise|dusk|dawn|evening|golden hour|twilight)\b/],
];

const COLOUR_WORDS: Record<string, string> = {
  red: '#d63a3a',
  crimson: '#b0203a',
  orange: '#f08a24',
  yellow: '#f2d13a',
  gold: '#d4a62a',
  golden: '#d4a62a',
  green: '#3f9a4a',
  emerald: '#1f9a6a',
  olive: '#7a7f2a',
  mint: '#9fe0c0',
  teal: '#1f8a8a',
  turquoise: '#30c0c0',
  cyan: '#3cc8e0',
  blue: '#3a6fd6',
  navy: '#1c2f66',
  purple: '#7b3fb8',
  violet: '#8a5cd6',
  lavender: '#b9a4e6',
  pink: '#e87aa8',
  magenta: '#c23a9a',
  coral: '#f07c64',
  peach: '#f6b98f',
  brown: '#7a5230',
  beige: '#e6d6b4',
  cream: '#f3ead2',
  white: '#f4f4f2',
  silver: '#c4c7cc',
  grey: '#8a8d91',
  gray: '#8a8d91',
  black: '#161616',
};

/** What the description asks for: a scene, a time of day and the colours it names, in order. */
export function readScene(description: string): Scene {
  const text = description.toLowerCase();
  const kind = SCENE_WORDS.find(([, words]) => words.test(text))?.[0] ?? 'plain';
  const time = TIME_WORDS.find(([, words]) => words.test(text))?.[0] ?? 'day';
  const colours = (text.match(/[a-z]+/g) ?? []).flatMap((word) => COLOUR_WORDS[word] ?? []);
  return { kind, time, colours: [...new Set(colours)] };
}

type Random = () => number;

/** A deterministic random sequence (mulberry32) from any text. */
export function seededRandom(seed: string): Random {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** `a` moved towards `b` by `t` (0..1). */
function mix(a: string, b: string, t: number): string {
  const [ca, cb] = [parseHex(a), parseHex(b)];
  const channel = (i: number) => (ca[i] as number) + ((cb[i] as number) - (ca[i] as number)) * t;
  return toHex(channel(0), channel(1), channel(2));
}

const between = (random: Random, min: number, max: number) => min + random() * (max - min);

type Canvas = { w: number; h: number; random: Random; scene: Scene };

const SKIES: Record<TimeOfDay, [string, string]> = {
  day: ['#4a8fe0', '#cfe6fa'],
  sunset: ['#4b2a6e', '#f49a52'],
  night: ['#060b1f', '#1f2d5c'],
};

/** Sky from the top to `horizon` (a fraction of the height), with a sun or moon, clouds or stars. */
function sky({ w, h, random, scene }: Canvas, horizon: number): string {
  const [top, bottom] = SKIES[scene.time];
  const y = h * horizon;
  const parts = [
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`,
    `<rect width="${w}" height="${y}" fill="url(#sky)"/>`,
  ];
  const r = Math.min(w, h) * between(random, 0.05, 0.09);
  const cx = w * between(random, 0.1, 0.9);
  if (scene.time === 'night') {
    for (let i = 0; i < 90; i++) {
      const size = between(random, 0.5, 2.2) * (Math.min(w, h) / 1024);
      parts.push(
        `<circle cx="${random() * w}" cy="${random() * y}" r="${size}" fill="#fff" fill-opacity="${between(random, 0.4, 1)}"/>`,
      );
    }
    parts.push(`<circle cx="${cx}" cy="${y * between(random, 0.15, 0.4)}" r="${r * 0.8}" fill="#f2f0dc"/>`);
  } else {
    const sunY = scene.time === 'sunset' ? y - r * between(random, 0.2, 0.9) : y * between(random, 0.12, 0.35);
    parts.push(`<circle cx="${cx}" cy="${sunY}" r="${r}" fill="${scene.time === 'sunset' ? '#ffd27a' : '#fff6c8'}"/>`);
    for (let i = 0, n = 2 + Math.floor(random() * 4); i < n; i++) {
      const rx = w * between(random, 0.08, 0.18);
      parts.push(
        `<ellipse cx="${random() * w}" cy="${y * between(random, 0.08, 0.6)}" rx="${rx}" ry="${rx * 0.28}" fill="#fff" fill-opacity="${between(random, 0.45, 0.85)}"/>`,
      );
    }
  }
  return parts.join('');
}

/** A ridge line across the width, `peaks` high points between `low` and `high` (fractions of h). */
function ridge({ w, h, random }: Canvas, low: number, high: number, peaks: number, colour: string): string {
  const points = [`0,${h}`];
  for (let i = 0; i <= peaks * 2; i++) {
    const y = i % 2 === 0 ? between(random, high, low) : between(random, high - 0.08, high);
    points.push(`${(w * i) / (peaks * 2)},${h * y}`);
  }
  points.push(`${w},${h}`);
  return `<polygon points="${points.join(' ')}" fill="${colour}"/>`;
}

const night = (scene: Scene, colour: string) => (scene.time === 'night' ? mix(colour, '#050814', 0.65) : colour);

const DRAW: Record<SceneKind, (c: Canvas) => string> = {
  beach: (c) => {
    const horizon = between(c.random, 0.5, 0.62);
    const shore = horizon + between(c.random, 0.12, 0.2);
    const { w, h } = c;
    const wave = Array.from({ length: 9 }, (_, i) => `${(w * i) / 8},${h * (shore + between(c.random, -0.02, 0.02))}`);
    return [
      sky(c, horizon),
      `<rect y="${h * horizon}" width="${w}" height="${h * (1 - horizon)}" fill="${night(c.scene, '#2a7fb8')}"/>`,
      `<polygon points="0,${h} ${wave.join(' ')} ${w},${h}" fill="${night(c.scene, '#e9d3a0')}"/>`,
      `<polyline points="${wave.join(' ')}" fill="none" stroke="#fff" stroke-opacity="0.7" stroke-width="${h * 0.008}"/>`,
    ].join('');
  },
  forest: (c) => {
    const { w, h } = c;
    const trees: string[] = [];
    for (const [row, shade] of [
      [0.55, '#2f5e3a'],
      [0.68, '#234a2c'],
      [0.82, '#183820'],
    ] as const) {
      for (let x = -0.05; x < 1.05; x += between(c.random, 0.05, 0.11)) {
        const base = h * (row + between(c.random, -0.02, 0.03));
        const height = h * between(c.random, 0.18, 0.34);
        const half = height * between(c.random, 0.22, 0.3);
        trees.push(
          `<polygon points="${w * x - half},${base} ${w * x},${base - height} ${w * x + half},${base}" fill="${night(c.scene, shade)}"/>`,
        );
      }
    }
    return [
      sky(c, 0.62),
      `<rect y="${h * 0.5}" width="${w}" height="${h * 0.5}" fill="${night(c.scene, '#3d6b3f')}"/>`,
      ...trees,
    ].join('');
  },
  city: (c) => {
    const { w, h } = c;
    const parts = [sky(c, 0.75), `<rect y="${h * 0.75}" width="${w}" height="${h * 0.25}" fill="#3b3f46"/>`];
    for (let x = 0; x < w; ) {
      const bw = w * between(c.random, 0.05, 0.12);
      const top = h * between(c.random, 0.25, 0.62);
      parts.push(
        `<rect x="${x}" y="${top}" width="${bw * 0.96}" height="${h * 0.78 - top}" fill="${night(c.scene, mix('#5a6270', '#8a93a3', c.random()))}"/>`,
      );
      const lit = c.scene.time === 'night' ? '#ffd97a' : '#c9dcef';
      for (let wy = top + h * 0.02; wy < h * 0.74; wy += h * 0.04) {
        for (let wx = x + bw * 0.15; wx < x + bw * 0.8; wx += bw * 0.25) {
          if (c.random() < 0.6)
            parts.push(`<rect x="${wx}" y="${wy}" width="${bw * 0.12}" height="${h * 0.018}" fill="${lit}"/>`);
        }
      }
      x += bw;
    }
    return parts.join('');
  },
  mountains: (c) =>
    [
      sky(c, 0.7),
      ridge(c, 0.55, 0.3, 3, night(c.scene, '#7a8aa6')),
      ridge(c, 0.7, 0.48, 4, night(c.scene, '#4f6079')),
      ridge(c, 0.85, 0.68, 5, night(c.scene, '#3b5a3c')),
    ].join(''),
  snow: (c) => {
    const { w, h } = c;
    const flakes = Array.from(
      { length: 140 },
      () =>
        `<circle cx="${c.random() * w}" cy="${c.random() * h}" r="${between(c.random, 1, 4) * (w / 1024)}" fill="#fff" fill-opacity="0.85"/>`,
    );
    return [
      sky({ ...c, scene: { ...c.scene, time: c.scene.time === 'night' ? 'night' : 'day' } }, 0.7),
      ridge(c, 0.75, 0.55, 3, '#dfe9f3'),
      ridge(c, 0.9, 0.75, 4, '#f6f9fc'),
      ...flakes,
    ].join('');
  },
  sky: (c) => sky(c, 1),
  studio: (c) => {
    const { w, h } = c;
    const base = c.scene.colours[0] ?? mix('#8f8a84', '#c9c4bd', c.random());
    const light = mix(base, '#ffffff', between(c.random, 0.3, 0.55));
    const floor = h * between(c.random, 0.7, 0.8);
    return [
      `<radialGradient id="light" cx="${between(c.random, 0.25, 0.75)}" cy="${between(c.random, 0.25, 0.45)}" r="0.75"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${mix(base, '#000000', 0.35)}"/></radialGradient>`,
      `<linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${mix(base, '#000000', 0.2)}"/><stop offset="1" stop-color="${mix(base, '#000000', 0.5)}"/></linearGradient>`,
      `<rect width="${w}" height="${h}" fill="url(#light)"/>`,
      `<rect y="${floor}" width="${w}" height="${h - floor}" fill="url(#floor)" fill-opacity="0.85"/>`,
    ].join('');
  },
  plain: (c) => {
    const { w, h } = c;
    const hue = () => `hsl(${Math.round(c.random() * 360)} 60% 55%)`;
    const [from, to] = [c.scene.colours[0] ?? hue(), c.scene.colours[1] ?? c.scene.colours[0] ?? hue()];
    const angle = c.random() * Math.PI * 2;
    const [dx, dy] = [Math.cos(angle) / 2, Math.sin(angle) / 2];
    const bokeh = Array.from(
      { length: 14 },
      () =>
        `<circle cx="${c.random() * w}" cy="${c.random() * h}" r="${Math.min(w, h) * between(c.random, 0.03, 0.12)}" fill="#fff" fill-opacity="${between(c.random, 0.06, 0.2)}"/>`,
    );
    return [
      `<linearGradient id="plain" x1="${0.5 - dx}" y1="${0.5 - dy}" x2="${0.5 + dx}" y2="${0.5 + dy}"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to === from ? '#ffffff' : to}" stop-opacity="${to === from ? 0.6 : 1}"/></linearGradient>`,
      `<rect width="${w}" height="${h}" fill="${from}"/>`,
      `<rect width="${w}" height="${h}" fill="url(#plain)"/>`,
      ...bokeh,
    ].join('');
  },
};

/**
 * The background for output `variant` of a description, as an SVG document of width x height.
 * Named colours tint outdoor scenes and are the backdrop of studio and plain ones.
 */
export function sceneryBackground(description: string, variant: number, width: number, height: number): Buffer {
  const scene = readScene(description);
  const canvas: Canvas = { w: width, h: height, random: seededRandom(`${description}#${variant}`), scene };
  const tint =
    scene.colours[0] && scene.kind !== 'studio' && scene.kind !== 'plain'
      ? `<rect width="${width}" height="${height}" fill="${scene.colours[0]}" fill-opacity="0.3"/>`
      : '';
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs/>${DRAW[scene.kind](canvas)}${tint}</svg>`,
  );
}
