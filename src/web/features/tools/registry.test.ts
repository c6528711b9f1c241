import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../../contract/tools';
import { WEB_TOOLS } from './registry';
import { BUSY_LABEL } from './tool-rules';

describe('the web registry', () => {
  it('has one module per tool of the contract, in its order, carrying the contract’s entry', () => {
    expect(WEB_TOOLS.map((tool) => tool.id)).toEqual(TOOLS.map((tool) => tool.id));
    for (const [index, tool] of WEB_TOOLS.entries()) expect(tool).toMatchObject({ ...TOOLS[index] });
  });

  it('shows what the server answers: an analysis for the analysis tool, images for the others', () => {
    for (const tool of WEB_TOOLS) expect(tool.result.kind === 'analysis').toBe(tool.response === 'analysis');
  });

  it('says "Generating..." while a generator runs and "Processing..." while an image is worked on', () => {
    for (const tool of WEB_TOOLS) {
      expect(tool.busyLabel).toBe(tool.response === 'image-list' ? BUSY_LABEL.generate : BUSY_LABEL.process);
    }
  });
});
