// Issue 41 on Background Remover's page: the "Finish" presets go out as the request's finishing
// fields (a batch's too), stay on the way to /tokens, and decide whether the result offers JPEG.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CUT_OUT_PRESETS } from '../../../../contract/output-files';
import { batchOf } from '../../../test-support/batch-fixtures';
import { chooseFiles, chooseImage, fileUrl, imageFile, imagesAnswer } from '../../../test-support/tool-fixtures';
import { action, open, sent, setUpToolPageTests, signedIn } from '../../../test-support/tool-page-harness';

setUpToolPageTests();

const CALL = 'POST /api/remove-background';
const finish = () => screen.getByRole('combobox', { name: 'Finish' }) as HTMLSelectElement;
const chosenFinish = () => finish().selectedOptions[0]?.textContent;
const choosePreset = (label: string) => {
  const option = [...finish().options].find((candidate) => candidate.textContent === label);
  if (!option) throw new Error(`no preset ${label}`);
  fireEvent.change(finish(), { target: { value: option.value } });
};
const formatOptions = () =>
  [...(screen.getByRole('combobox', { name: 'Format' }) as HTMLSelectElement).options].map((option) => option.text);

describe('Background Remover: Finish', () => {
  it('offers the shop presets, the plain cut-out first and chosen', async () => {
    await open('/background-remover', signedIn(), 'Background Remover');
    expect([...finish().options].map((option) => option.textContent)).toEqual([
      'Transparent, as it is',
      'Transparent, cropped',
      'White square, 2000 px',
      'White square with shadow',
    ]);
    expect(chosenFinish()).toBe('Transparent, as it is');
    // Short labels (whole in the narrowest menu, issue 54); the chosen one's hint says the rest.
    const hint = () => document.getElementById(finish().getAttribute('aria-describedby') ?? '')?.textContent;
    expect(hint()).toBe('The subject on a transparent background, the picture’s size kept.');
    choosePreset('White square with shadow');
    expect(hint()).toBe('The white 2000 × 2000 px square, with a soft shadow under the subject.');
  });

  it('sends each preset’s finishing fields with the image; the plain one sends none', async () => {
    const { api } = await open(
      '/background-remover',
      signedIn({ tokens: 20 }, { [CALL]: imagesAnswer(fileUrl(1), 18) }),
      'Background Remover',
    );
    await chooseImage();
    for (const [index, preset] of CUT_OUT_PRESETS.entries()) {
      choosePreset(preset.label);
      fireEvent.click(action());
      await waitFor(() => expect(api.callsTo(CALL)).toHaveLength(index + 1));
      const { image, userId, ...finishing } = sent(api, CALL, index);
      expect([typeof image, userId]).toEqual(['string', 'user-1']);
      expect(finishing).toEqual(preset.finish);
      await screen.findByRole('button', { name: 'Download' });
    }
    expect(Object.keys(sent(api, CALL, 0)).sort()).toEqual(['image', 'userId']);
  });

  it('offers no JPEG for a transparent cut-out, and JPEG for one on white, downloaded converted as .jpg', async () => {
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const { api } = await open(
      '/background-remover',
      signedIn({ tokens: 20 }, { [CALL]: imagesAnswer(fileUrl(1), 18), [`GET ${fileUrl(1)}`]: { body: 'cut-out' } }),
      'Background Remover',
    );
    await chooseImage();
    fireEvent.click(action());
    await screen.findByRole('button', { name: 'Download' });
    expect(formatOptions()).toEqual(['PNG', 'WebP', 'AVIF']);

    choosePreset('White square, 2000 px');
    fireEvent.click(action());
    await waitFor(() => expect(formatOptions()).toEqual(['PNG', 'JPEG', 'WebP', 'AVIF']));
    fireEvent.change(screen.getByRole('combobox', { name: 'Format' }), { target: { value: 'jpeg' } });
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(clicks).toEqual(['background-removed.jpg']));
    expect(api.callsTo(`GET ${fileUrl(1)}`).map((call) => call.search)).toEqual(['?format=jpeg']);
  });

  it('keeps the preset while the user buys tokens', async () => {
    const { router } = await open('/background-remover', signedIn({ tokens: 0 }), 'Background Remover');
    await chooseImage();
    choosePreset('White square with shadow');
    fireEvent.click(action());
    await waitFor(() => expect(router.state.location.pathname).toBe('/tokens'));
    fireEvent.click(await screen.findByRole('link', { name: 'Back to Background Remover' }));
    await screen.findByRole('img', { name: 'Your image: photo.png' });
    expect(chosenFinish()).toBe('White square with shadow');
  });

  it('sends the preset with each image of a batch', async () => {
    const send = 'POST /api/batches/b-1/images';
    const { api } = await open(
      '/background-remover',
      signedIn(
        { tokens: 30 },
        {
          'POST /api/batches': { status: 201, body: batchOf('b-1', 2) },
          [send]: [
            { status: 202, body: { jobId: 'j-0', item: 0, status: 'queued', charged: 2, balance: 28 } },
            { status: 202, body: { jobId: 'j-1', item: 1, status: 'queued', charged: 2, balance: 26 } },
          ],
          'GET /api/batches/b-1': { body: batchOf('b-1', 2) },
        },
      ),
      'Background Remover',
    );
    chooseFiles(imageFile('a.png'), imageFile('b.png'));
    await screen.findByRole('heading', { name: /Your batch/ });
    choosePreset('Transparent, cropped');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Run 2 images' }));
    });
    await waitFor(() => expect(api.callsTo(send)).toHaveLength(2));
    for (const call of api.callsTo(send)) expect(call.body).toMatchObject({ crop: 2 });
    expect(api.callsTo(send)[0]?.body).not.toHaveProperty('background');
  });
});

describe('Background Remover: mode (issue 58)', () => {
  const choose = (label: string) => fireEvent.click(screen.getByRole('radio', { name: label }));

  it('offers Cut-out, Blur and Mask as one choice; each sends only its own fields', async () => {
    const { api } = await open(
      '/background-remover',
      signedIn({ tokens: 20 }, { [CALL]: imagesAnswer(fileUrl(1), 18) }),
      'Background Remover',
    );
    const group = screen.getByRole('group', { name: 'Result' });
    expect((screen.getByRole('radio', { name: 'Cut-out' }) as HTMLInputElement).checked).toBe(true);
    const radios = [...group.querySelectorAll('input[type="radio"]')];
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual(['Cut-out', 'Blur', 'Mask']);
    await chooseImage();
    choosePreset('White square, 2000 px');

    choose('Blur');
    // The cut-out's finishing is not offered (nor sent) with a blur; the strength is.
    expect(screen.queryByRole('combobox', { name: 'Finish' })).toBeNull();
    fireEvent.change(screen.getByRole('slider', { name: 'Blur strength: 50' }), { target: { value: '80' } });
    screen.getByRole('slider', { name: 'Blur strength: 80' });
    fireEvent.click(action());
    await waitFor(() => expect(api.callsTo(CALL)).toHaveLength(1));
    const { image: _blurImage, userId: _blurUser, ...blur } = sent(api, CALL, 0);
    expect(blur).toEqual({ mode: 'blur', blurStrength: 80 });
    await screen.findByRole('button', { name: 'Download' });
    // A blur is an opaque WebP photo: JPEG is offered.
    expect(formatOptions()).toEqual(['WebP', 'PNG', 'JPEG', 'AVIF']);

    choose('Mask');
    expect(screen.queryByRole('slider', { name: /Blur strength/ })).toBeNull();
    fireEvent.click(action());
    await waitFor(() => expect(api.callsTo(CALL)).toHaveLength(2));
    const { image: _maskImage, userId: _maskUser, ...mask } = sent(api, CALL, 1);
    expect(mask).toEqual({ mode: 'mask' });
    // A mask is a PNG only: no format to choose.
    await waitFor(() => expect(screen.queryByRole('combobox', { name: 'Format' })).toBeNull());

    choose('Cut-out');
    expect(chosenFinish()).toBe('White square, 2000 px');
  });
});
