import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolPage } from './ToolPage';

describe('ToolPage', () => {
  it('shows the tool’s title, summary and per-image cost', () => {
    render(<ToolPage toolId="text-to-pic" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Text to Pic');
    expect(screen.getByText('Describe a picture and get up to four images in seconds.')).toBeTruthy();
    expect(screen.getByTestId('cost-chip').textContent).toBe('1 token per image');
    expect(document.title).toBe('Text to Pic · Picture Palette');
  });

  it('shows a plural per-use cost', () => {
    render(<ToolPage toolId="creative-upscaler" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Creative Upscaler');
    expect(screen.getByTestId('cost-chip').textContent).toBe('70 tokens per use');
    expect(document.title).toBe('Creative Upscaler · Picture Palette');
  });

  it('shows a plural per-image cost', () => {
    render(<ToolPage toolId="background-swap" />);
    expect(screen.getByTestId('cost-chip').textContent).toBe('25 tokens per image');
  });

  it('is honest: a status line, the layout areas, and no controls that pretend to work', () => {
    render(<ToolPage toolId="image-analyzer" />);
    expect(
      screen.getByText('This tool is being set up: running it with your tokens arrives in an upcoming release.'),
    ).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Your image' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Keywords and colours' })).toBeTruthy();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryAllByRole('img')).toHaveLength(0);
  });
});
