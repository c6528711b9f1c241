import { describe, expect, it } from 'vitest';
import { MENU, menuOf, START_ROUTE, startTool } from './routes';
import { TOOLS, type ToolDefinition, type ToolId } from './tools';

describe('the menu', () => {
  it('has the spec’s labels in the spec’s order (product-spec.md section 2)', () => {
    expect(MENU.map((item) => item.label)).toEqual([
      'Home',
      'Text to Pic',
      'Metamorphose',
      'Colorizer',
      'Remove Background',
      'Creative Upscaler',
      'Fix a Face',
      'Text Lab',
      'Background Swap',
      'Image Upscaler',
      'Image Analyzer',
      'My Creations',
      'Recipes',
      'Tokens',
      'User Settings',
    ]);
  });

  it('is built from the tool list: an 11th tool shows up before My Creations, with its route and icon', () => {
    const eleventh: ToolDefinition = {
      ...TOOLS[0],
      id: 'sketch-maker' as ToolId,
      title: 'Sketch Maker',
      menuLabel: 'Sketch Maker',
      route: '/sketch-maker',
      apiPath: '/make-sketch',
      icon: 'paintbrush',
    } as ToolDefinition;
    const menu = menuOf([...TOOLS, eleventh]);
    expect(menu).toHaveLength(MENU.length + 1);
    expect(menu.at(-5)).toEqual({
      label: 'Sketch Maker',
      to: '/sketch-maker',
      icon: 'paintbrush',
      toolId: 'sketch-maker',
    });
    expect(menu.at(-4)?.label).toBe('My Creations');
  });

  it('sends a signed-in user to Text to Pic', () => {
    expect(START_ROUTE).toBe('/text-to-pic');
    expect(startTool().title).toBe('Text to Pic');
  });
});
