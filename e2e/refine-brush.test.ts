// Issue 58 item 1 in a real browser against the real server and its local engine (ISNet's cut-out),
// at phone (390 px) and desktop (1280 px) widths: "Refine" on a Background Remover result opens the
// editor over the original photo; an Erase stroke with the mouse across the subject's middle, a
// Restore stroke with a finger (pointer events of type touch), undo and redo from the keyboard,
// then Save: the page shows version 2 of 2, free, and the new version's file is transparent where
// the mouse erased. Screenshots go to .tmp/e2e-shots/ (not committed).
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import type { CreationList } from '../src/contract/creations';
import { SHOTS, WIDTHS } from './support/browser';
import { browserForFile } from './support/suite';
import { chooseImage, pageReady } from './support/tool-page';
import { shownBalance as balance, newAccount } from './support/visitors';

const baseUrl = inject('baseUrl');
const SMALL_CAT = path.resolve(import.meta.dirname, 'fixtures/chelsea-small.png');
/** A local model on a machine the other tests keep busy: a limit catches a hang, not slowness. */
const RUN_WAIT_MS = 180_000;

/** A drag of a finger across the canvas from (x0, y0) to (x1, y1), as pointer events of type touch. */
async function touchDrag(canvas: Locator, from: { x: number; y: number }, to: { x: number; y: number }) {
  const common = { pointerId: 7, pointerType: 'touch', isPrimary: true, button: 0, buttons: 1 };
  await canvas.dispatchEvent('pointerdown', { ...common, clientX: from.x, clientY: from.y });
  for (let step = 1; step <= 8; step += 1) {
    const t = step / 8;
    await canvas.dispatchEvent('pointermove', {
      ...common,
      clientX: from.x + (to.x - from.x) * t,
      clientY: from.y + (to.y - from.y) * t,
    });
  }
  await canvas.dispatchEvent('pointerup', { ...common, buttons: 0, clientX: to.x, clientY: to.y });
}

describe.runIf(inject('browserAvailable'))('Refining a cut-out by hand (issue 58)', () => {
  const browser = browserForFile();

  /** The alpha at the middle of the photo of the user's newest Background Remover creation, and its versions. */
  async function newestVersion(page: Page) {
    const list = (await (
      await page.request.get(`${baseUrl}/api/creations?tool=background-remover`)
    ).json()) as CreationList;
    const [newest] = list.creations;
    const file = await page.request.get(`${baseUrl}${newest?.outputs[0]?.url}`);
    const bytes = Buffer.from(await file.body());
    const { width = 0, height = 0 } = await sharp(bytes).metadata();
    const { data, info } = await sharp(bytes)
      .extract({ left: Math.floor(width / 2), top: Math.floor(height / 2), width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { alpha: data[info.channels - 1], versions: newest?.versions.length, charged: newest?.charged };
  }

  it.each(WIDTHS)(
    'erases with the mouse, restores with a finger, undoes and redoes, and saves version 2 (%s)',
    async (label, viewport) => {
      const { page } = await newAccount(browser(), baseUrl, { verified: true, viewport, at: '/background-remover' });
      await pageReady(page, 'Background Remover');
      await chooseImage(page, SMALL_CAT);
      await page.getByRole('button', { name: /^Remove Background/ }).click();
      const refine = page.getByRole('button', { name: 'Refine', exact: true });
      await refine.waitFor({ timeout: RUN_WAIT_MS });
      // The model kept (some of) the cat's middle: the mouse erases it below.
      expect((await newestVersion(page)).alpha).toBeGreaterThan(0);
      const tokens = await balance(page);

      await refine.click();
      const dialog = page.getByRole('dialog', { name: 'Refine the cut-out' });
      await dialog.waitFor();
      const canvas = dialog.locator('canvas[data-ready="true"]');
      await canvas.waitFor();
      const box = await canvas.boundingBox();
      if (!box) throw new Error('the canvas has no box');
      const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };

      // Erase, the biggest brush, with the mouse across the middle.
      await dialog.getByRole('slider', { name: /Brush size/ }).fill('300');
      await page.mouse.move(box.x + box.width * 0.3, middle.y);
      await page.mouse.down();
      await page.mouse.move(middle.x, middle.y, { steps: 6 });
      await page.mouse.move(box.x + box.width * 0.7, middle.y, { steps: 6 });
      await page.mouse.up();
      await expect.poll(() => canvas.getAttribute('data-strokes')).toBe('1');

      // Restore (R) with a finger near the top.
      await canvas.focus();
      await page.keyboard.press('r');
      await expect(dialog.getByRole('button', { name: 'Restore' }).getAttribute('aria-pressed')).resolves.toBe('true');
      await touchDrag(
        canvas,
        { x: box.x + box.width * 0.2, y: box.y + 10 },
        { x: box.x + box.width * 0.4, y: box.y + 10 },
      );
      await expect.poll(() => canvas.getAttribute('data-strokes')).toBe('2');
      await page.keyboard.press('ControlOrMeta+z');
      await expect.poll(() => canvas.getAttribute('data-strokes')).toBe('1');
      await page.keyboard.press('ControlOrMeta+y');
      await expect.poll(() => canvas.getAttribute('data-strokes')).toBe('2');
      await page.screenshot({ path: path.join(SHOTS, `refine-editor-${label}.png`) });

      await dialog.getByRole('button', { name: 'Save version' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('status').filter({ hasText: 'Saved as version 2 of 2.' }).waitFor();
      await page.screenshot({ path: path.join(SHOTS, `refine-saved-${label}.png`), fullPage: true });

      const saved = await newestVersion(page);
      expect(saved).toEqual({ alpha: 0, versions: 2, charged: 0 });
      // Free: the balance the page shows is what it was.
      await expect.poll(() => balance(page)).toBe(tokens);
    },
    420_000,
  );
});
