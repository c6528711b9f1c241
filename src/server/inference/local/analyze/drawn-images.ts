// Test and benchmark helper: images drawn with sharp from SVG, for what the photos lack (written
// words, flat illustrations), as the checked ImageInput a job receives.
import sharp from 'sharp';
import type { ImageInput } from '../../../images/image-types';
import { imageInputFrom } from '../faces/fixture-image';

const svgImage = async (svg: string, format: 'png' | 'jpeg' = 'png'): Promise<ImageInput> =>
  imageInputFrom(await sharp(Buffer.from(svg))[format]().toBuffer());

/** `text` in bold letters `size` px high on a plain background, 800x400. */
export const poster = (text: string, size = 96, format: 'png' | 'jpeg' = 'png') =>
  svgImage(
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"><rect width="800" height="400" fill="#f4d03f"/>
      <text x="400" y="230" font-family="DejaVu Sans" font-weight="bold" font-size="${size}" text-anchor="middle"
      fill="#1a1a1a">${text}</text></svg>`,
    format,
  );

/** Flat-coloured vector drawings: mountains under a sun, a house, a smiley. */
export const FLAT_DRAWINGS: Record<string, string> = {
  mountains: `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><rect width="512" height="512" fill="#8ecae6"/>
    <circle cx="380" cy="120" r="60" fill="#ffb703"/><rect x="0" y="380" width="512" height="132" fill="#219ebc"/>
    <polygon points="80,380 200,180 320,380" fill="#023047"/><polygon points="220,380 330,230 440,380" fill="#fb8500"/></svg>`,
  house: `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="#fefae0"/>
    <rect x="200" y="180" width="200" height="160" fill="#d62828" stroke="#000" stroke-width="6"/>
    <polygon points="180,180 300,80 420,180" fill="#003049" stroke="#000" stroke-width="6"/>
    <rect x="280" y="260" width="40" height="80" fill="#fcbf49" stroke="#000" stroke-width="6"/><circle cx="90" cy="90" r="40" fill="#f77f00"/></svg>`,
  smiley: `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="#ffffff"/>
    <circle cx="200" cy="200" r="150" fill="#ffd60a" stroke="#000" stroke-width="8"/><circle cx="150" cy="160" r="18"/>
    <circle cx="250" cy="160" r="18"/><path d="M120 250 Q200 330 280 250" stroke="#000" stroke-width="10" fill="none"/></svg>`,
};

export const flatDrawing = (name: string, format: 'png' | 'jpeg' = 'png') =>
  svgImage(FLAT_DRAWINGS[name] ?? '', format);
