import { describe, expect, it } from 'vitest';
import { upscaleHint, upscaleProblem } from './upscale-limits';

describe('upscale input limits', () => {
  it('name the limit per scale in the hint, without the scale where there is only one', () => {
    expect(upscaleHint([2, 4])).toBe(
      'One PNG, JPG or WEBP image. Largest input: 2048 x 2048 px for 2x, 1024 x 1024 px for 4x.',
    );
    expect(upscaleHint([2])).toBe('One PNG, JPG or WEBP image. Largest input: 2048 x 2048 px.');
  });

  it('flag an image over the limit for its scale, and nothing at or under it', () => {
    expect(upscaleProblem({ width: 2048, height: 2048 }, 2, 'Choose a smaller image.')).toBeNull();
    expect(upscaleProblem(null, 6, 'x')).toBeNull();
    expect(upscaleProblem({ width: 1500, height: 1500 }, 4, 'Choose a smaller scale or image.')).toBe(
      'This image is 1500 x 1500 px: the largest input for 4x is 1024 x 1024 px. Choose a smaller scale or image.',
    );
    // Within the pixels but too long a side for the output's format.
    expect(upscaleProblem({ width: 9000, height: 100 }, 2, 'Choose a smaller image.')).toBe(
      'This image is 9000 x 100 px: its longest side can be at most 8191 px for 2x. Choose a smaller image.',
    );
  });
});
