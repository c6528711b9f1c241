// "Run again" from My Creations: the tool opens with the settings the job was run with.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { creation, creationList, storedImage } from '../../test-support/creation-fixtures';
import { fileUrl, imagesAnswer } from '../../test-support/tool-fixtures';
import { action, open, sent, setUpToolPageTests, signedIn } from '../../test-support/tool-page-harness';

setUpToolPageTests();

describe('run again', () => {
  it('Text to Pic opens with the prompt, aspect ratio, count and quality of the job', async () => {
    const job = creation({
      id: 'job-9',
      tool: 'text-to-pic',
      inputs: [],
      outputs: [storedImage(5)],
      settings: { prompt: 'a red fox in snow', aspectRatio: '16:9', numOutputs: 3, quality: 'low' },
    });
    await open('/creations', signedIn({}, { 'GET /api/creations': creationList(job) }), 'My Creations');
    fireEvent.click(await screen.findByRole('link', { name: 'Run again' }));
    await screen.findByRole('heading', { level: 1, name: 'Text to Pic' });
    expect((screen.getByRole('textbox', { name: 'Prompt' }) as HTMLTextAreaElement).value).toBe('a red fox in snow');
    expect((screen.getByRole('combobox', { name: 'Aspect ratio' }) as HTMLSelectElement).value).toBe('16:9');
    await waitFor(() => expect((screen.getByRole('radio', { name: '3' }) as HTMLInputElement).checked).toBe(true));
    expect((screen.getByRole('radio', { name: 'Low' }) as HTMLInputElement).checked).toBe(true);
  });

  it('Image Upscaler opens with the same input image and scale', async () => {
    const job = creation({ id: 'job-10', tool: 'image-upscaler', settings: { scale: 4 } });
    await open('/creations', signedIn({}, { 'GET /api/creations': creationList(job) }), 'My Creations');
    fireEvent.click(await screen.findByRole('link', { name: 'Run again' }));
    await screen.findByRole('heading', { level: 1, name: 'Image Upscaler' });
    expect(screen.getByRole('img', { name: /Your image/ }).getAttribute('src')).toBe(storedImage(1).url);
    expect((screen.getByRole('radio', { name: '4x' }) as HTMLInputElement).checked).toBe(true);
  });

  it('Background Remover opens with the finish preset of the job, or the plain one for settings no preset makes', async () => {
    const finish = () =>
      (screen.getByRole('combobox', { name: 'Finish' }) as HTMLSelectElement).selectedOptions[0]?.text;
    const shop = creation({ id: 'job-11', settings: { background: '#FFFFFF', size: 2000, shadow: true } });
    // An API call's own margin matches no preset.
    const ownMargin = creation({ id: 'job-12', settings: { crop: 7 } });
    const { router } = await open(
      '/creations',
      signedIn({}, { 'GET /api/creations': creationList(shop, ownMargin) }),
      'My Creations',
    );
    fireEvent.click((await screen.findAllByRole('link', { name: 'Run again' }))[0] as HTMLElement);
    await screen.findByRole('heading', { level: 1, name: 'Background Remover' });
    expect(finish()).toBe('White square with shadow');

    await router.navigate('/creations');
    fireEvent.click((await screen.findAllByRole('link', { name: 'Run again' }))[1] as HTMLElement);
    await screen.findByRole('heading', { level: 1, name: 'Background Remover' });
    await waitFor(() => expect(finish()).toBe('Transparent, as it is'));
  });

  it('keeps the format and quality the job asked for: the call sends them, the result offers that format first', async () => {
    const job = creation({ id: 'job-13', tool: 'colorizer', settings: { outputFormat: 'avif', outputQuality: 70 } });
    const { api } = await open(
      '/creations',
      signedIn(
        { tokens: 20 },
        { 'GET /api/creations': creationList(job), 'POST /api/colorize-image': imagesAnswer(fileUrl(2), 18) },
      ),
      'My Creations',
    );
    fireEvent.click(await screen.findByRole('link', { name: 'Run again' }));
    await screen.findByRole('heading', { level: 1, name: 'Colorizer' });
    await waitFor(() => expect(action().disabled).toBe(false));
    fireEvent.click(action());
    await waitFor(() => expect(api.callsTo('POST /api/colorize-image')).toHaveLength(1));
    expect(sent(api, 'POST /api/colorize-image')).toMatchObject({ outputFormat: 'avif', outputQuality: 70 });
    const format = (await screen.findByRole('combobox', { name: 'Format' })) as HTMLSelectElement;
    expect(format.options[0]?.text).toBe('AVIF');
  });
});
