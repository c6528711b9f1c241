import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { toolById } from '../../../contract/tools';
import { BODY_MESSAGES, formToBody, readToolCallBody } from './tool-call-body';

const png = () =>
  sharp({ create: { width: 4, height: 3, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();

const form = (entries: [string, string | Blob, string?][]) => {
  const data = new FormData();
  for (const [name, value, fileName] of entries) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, value, fileName);
  }
  return data;
};

const upscaler = toolById('image-upscaler');

describe('formToBody: a multipart form as the JSON call it stands for', () => {
  it('turns a file part into the data URL and types the values by their schema', async () => {
    const bytes = await png();
    const read = await formToBody(
      form([
        ['image', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), 'photo.bin'],
        ['scale', '4'],
      ]),
      upscaler,
    );
    expect(read).toEqual({
      body: { image: `data:image/png;base64,${bytes.toString('base64')}`, scale: 4 },
      canonical: expect.stringMatching(/^multipart\/form-data\n/),
    });
  });

  it('types numbers and booleans only where the field takes them', async () => {
    const read = await formToBody(
      form([
        ['prompt', '2024'],
        ['numOutputs', '2'],
        ['goFast', 'true'],
        ['outputQuality', '66'],
        ['aspectRatio', '16:9'],
      ]),
      toolById('text-to-pic'),
    );
    expect('body' in read && read.body).toEqual({
      prompt: '2024',
      numOutputs: 2,
      goFast: true,
      outputQuality: 66,
      aspectRatio: '16:9',
    });
    // A value the field refuses either way is left for the schema's own message: a number out of range stays a number.
    const wrong = await formToBody(
      form([
        ['numOutputs', '9'],
        ['goFast', 'yes'],
      ]),
      toolById('text-to-pic'),
    );
    expect('body' in wrong && wrong.body).toEqual({ numOutputs: 9, goFast: 'yes' });
  });

  it('gives the same text for the same fields and bytes in any order', async () => {
    const bytes = await png();
    const file = () => new Blob([new Uint8Array(bytes)], { type: 'image/png' });
    const a = await formToBody(
      form([
        ['image', file(), 'a.png'],
        ['scale', '2'],
      ]),
      upscaler,
    );
    const b = await formToBody(
      form([
        ['scale', '2'],
        ['image', file(), 'other-name.png'],
      ]),
      upscaler,
    );
    const c = await formToBody(
      form([
        ['scale', '4'],
        ['image', file(), 'a.png'],
      ]),
      upscaler,
    );
    expect('canonical' in a && a.canonical).toBe('canonical' in b && b.canonical);
    expect('canonical' in a && a.canonical).not.toBe('canonical' in c && c.canonical);
  });

  it('refuses unknown fields, two files or values for one field, and a file for a text field', async () => {
    const file = new Blob([new Uint8Array(await png())], { type: 'image/png' });
    expect(await formToBody(form([['colour', 'red']]), upscaler)).toEqual({
      status: 400,
      error: BODY_MESSAGES.unknownField('colour', upscaler, [
        'userId',
        'image',
        'scale',
        'targetWidth',
        'targetHeight',
        'printSize',
        'dpi',
        'outputFormat',
        'outputQuality',
        'keepLocation',
        'webhook',
      ]),
    });
    expect(
      await formToBody(
        form([
          ['image', file, 'a.png'],
          ['image', file, 'b.png'],
        ]),
        upscaler,
      ),
    ).toEqual({
      status: 400,
      error: 'image: must be one file, not 2',
    });
    expect(
      await formToBody(
        form([
          ['scale', '2'],
          ['scale', '4'],
        ]),
        upscaler,
      ),
    ).toEqual({
      status: 400,
      error: 'scale: must be given once, not 2 times',
    });
    expect(await formToBody(form([['scale', file, 'scale.png']]), upscaler)).toEqual({
      status: 400,
      error: 'scale: must be a form field, not a file',
    });
  });
});

describe('readToolCallBody: by Content-Type', () => {
  const request = (type: string | undefined, body: BodyInit) => {
    const raw = new Request('http://localhost/', {
      method: 'POST',
      body,
      headers: type === undefined ? {} : { 'content-type': type },
    });
    if (type === undefined) raw.headers.delete('content-type');
    return {
      header: (name: string) => raw.headers.get(name) ?? undefined,
      text: () => raw.text(),
      formData: () => raw.formData(),
    };
  };

  it('reads JSON (or no type) as the text it is, and refuses what is not an object', async () => {
    const text = '{"image":"x", "scale": 2}';
    expect(await readToolCallBody(request('application/json; charset=utf-8', text), upscaler)).toEqual({
      body: { image: 'x', scale: 2 },
      canonical: text,
    });
    expect(await readToolCallBody(request(undefined, text), upscaler)).toMatchObject({ canonical: text });
    expect(await readToolCallBody(request('application/json', '[1]'), upscaler)).toEqual({
      status: 400,
      error: 'body: must be a JSON object',
    });
  });

  it('refuses a broken multipart body and any other type', async () => {
    expect(await readToolCallBody(request('multipart/form-data; boundary=xyz', 'not a form'), upscaler)).toEqual({
      status: 400,
      error: BODY_MESSAGES.badMultipart,
    });
    expect(await readToolCallBody(request('text/plain', 'image=x'), upscaler)).toEqual({
      status: 415,
      error: "A tool call's body must be application/json or multipart/form-data, not text/plain.",
    });
  });
});
