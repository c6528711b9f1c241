// Issue 40, the web side: several images into one of the six batch tools make a batch view (cost
// first, then the run, its progress, the zip), a reload resumes it from ?batch=<id>.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { rememberBatchStartedHere } from '../../../lib/batches/started-here';
import { batchCreation, batchItem, batchOf } from '../../../test-support/batch-fixtures';
import { creationList, storedImage } from '../../../test-support/creation-fixtures';
import { deferred, type FakeReply, type FakeRequest } from '../../../test-support/fake-api';
import { chooseFiles, chooseImage, imageFile, toolsInfoAnswer } from '../../../test-support/tool-fixtures';
import { balanceText, open, setUpToolPageTests, signedIn } from '../../../test-support/tool-page-harness';
import { JOB_POLL_MS } from '../tool-api';

setUpToolPageTests();

const MB = 1024 * 1024;

const tiles = () => screen.getAllByTestId('batch-tile');
const tileNamed = (name: string) => {
  const tile = tiles().find((candidate) => candidate.querySelector('.pp-batch-tile__name')?.textContent === name);
  if (!tile) throw new Error(`no tile named ${name}`);
  return tile;
};
const costText = () => screen.getByTestId('batch-cost').textContent;
const images = (count: number) =>
  Array.from({ length: count }, (_, n) => imageFile(`IMG_${100 + n}.jpg`, 'image/jpeg'));
const sendCall = 'POST /api/batches/b-1/images';

describe('several images on a batch tool', () => {
  it('switch the page to a batch view, each image with its name, size and ×; one image stays single', async () => {
    await open('/background-remover', signedIn(), 'Background Remover');
    expect(screen.getByTestId('batch-hint').textContent).toBe(
      'Or choose up to 50 images at once to run them as a batch.',
    );
    chooseFiles(
      imageFile('IMG_0412.jpg', 'image/jpeg', 1.2 * MB),
      imageFile('b.png'),
      imageFile('c.webp', 'image/webp'),
    );
    await screen.findByRole('heading', { name: /Your batch/ });
    expect(tiles()).toHaveLength(3);
    expect(tileNamed('IMG_0412.jpg').textContent).toContain('1.2 MB');
    expect(screen.queryByTestId('tool-action')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Remove IMG_0412.jpg' }));
    expect(tiles()).toHaveLength(2);
    // Down to one: the single page, with that image.
    fireEvent.click(screen.getByRole('button', { name: 'Remove c.webp' }));
    await screen.findByRole('img', { name: 'Your image: b.png' });
    expect(screen.queryByTestId('batch-picker')).toBeNull();
    expect(screen.getByTestId('tool-action')).toBeTruthy();
  });

  it('keep one chosen image on the single page as it is', async () => {
    await open('/colorizer', signedIn(), 'Colorizer');
    await chooseImage(imageFile('old.jpg', 'image/jpeg'));
    expect(screen.queryByTestId('batch-picker')).toBeNull();
  });

  it('take a drop of several files and a paste of several', async () => {
    await open('/face-fixer', signedIn(), 'Fix a Face');
    const zone = document.querySelector('.pp-dropzone') as HTMLElement;
    fireEvent.drop(zone, { dataTransfer: { files: images(2) } });
    await waitFor(() => expect(tiles()).toHaveLength(2));
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.assign(paste, { clipboardData: { files: [imageFile('pasted.png'), imageFile('pasted-2.png')] } });
    document.dispatchEvent(paste);
    await waitFor(() => expect(tiles()).toHaveLength(4));
    // "Add images" adds more.
    fireEvent.change(screen.getByTestId('batch-add-input'), { target: { files: [imageFile('more.png')] } });
    await waitFor(() => expect(tiles()).toHaveLength(5));
  });

  it('mark a file it cannot use with the reason, and send only the others', async () => {
    const { api } = await open(
      '/background-remover',
      signedIn(
        { tokens: 30 },
        {
          'POST /api/batches': { status: 201, body: batchOf('b-1', 1) },
          [sendCall]: { status: 202, body: { jobId: 'j-0', item: 0, status: 'queued', charged: 2, balance: 28 } },
          'GET /api/batches/b-1': { body: batchOf('b-1', 1, [batchItem('b-1', 0, 'a.png')]) },
        },
      ),
      'Background Remover',
    );
    chooseFiles(
      imageFile('a.png'),
      new File(['notes'], 'notes.txt', { type: 'text/plain' }),
      imageFile('huge.png', 'image/png', 45_000_000),
    );
    await screen.findByRole('heading', { name: /Your batch/ });
    expect(within(tileNamed('notes.txt')).getByTestId('batch-badge').textContent).toBe("Can't use");
    expect(tileNamed('notes.txt').textContent).toContain('Only PNG, JPG and WEBP images can be used.');
    expect(tileNamed('huge.png').textContent).toContain(
      'This image is 42.9 MB; the limit is 10 MB. Please choose a smaller file.',
    );
    expect(within(tileNamed('a.png')).queryByTestId('batch-badge')).toBeNull();
    expect(costText()).toContain('1 image x 2 tokens = 2 tokens');
    fireEvent.click(screen.getByRole('button', { name: 'Run 1 image' }));
    await waitFor(() => expect(api.callsTo(sendCall)).toHaveLength(1));
    // The names of the images it runs come first: the zip's README names one never sent by them.
    expect(api.callsTo('POST /api/batches')[0]?.body).toEqual({
      tool: 'background-remover',
      size: 1,
      names: ['a.png'],
    });
    expect(api.callsTo(sendCall)[0]?.body).toMatchObject({ item: 0, name: 'a.png' });
  });

  it('read a dropped folder through, where the browser can', async () => {
    await open('/colorizer', signedIn(), 'Colorizer');
    const fileEntry = (file: File) => ({
      isFile: true,
      isDirectory: false,
      name: file.name,
      file: (ok: (f: File) => void) => ok(file),
    });
    const pieces = [
      [fileEntry(imageFile('b.png')), fileEntry(imageFile('a.png'))],
      [fileEntry(imageFile('.DS_Store'))],
      [],
    ];
    const folder = {
      isFile: false,
      isDirectory: true,
      name: 'shoot',
      createReader: () => ({ readEntries: (ok: (entries: unknown[]) => void) => ok(pieces.shift() ?? []) }),
    };
    const zone = document.querySelector('.pp-dropzone') as HTMLElement;
    fireEvent.drop(zone, {
      dataTransfer: {
        files: [new File([], 'shoot')],
        items: [{ kind: 'file', webkitGetAsEntry: () => folder, getAsFile: () => null }],
      },
    });
    await waitFor(() =>
      expect(tiles().map((tile) => tile.querySelector('.pp-batch-tile__name')?.textContent)).toEqual([
        'a.png',
        'b.png',
      ]),
    );
  });

  it('check each image’s pixels as the single page does, once its preview knows them', async () => {
    await open('/background-remover', signedIn({ tokens: 30 }), 'Background Remover');
    chooseFiles(imageFile('wide.png'), imageFile('b.png'));
    const preview = within(await waitFor(() => tileNamed('wide.png'))).getByRole('img');
    Object.defineProperty(preview, 'naturalWidth', { value: 10000, configurable: true });
    Object.defineProperty(preview, 'naturalHeight', { value: 100, configurable: true });
    fireEvent.load(preview);
    await waitFor(() =>
      expect(tileNamed('wide.png').textContent).toContain(
        'This image is 10,000 x 100 px; its longest side can be at most 10 times its shortest.',
      ),
    );
    expect(costText()).toContain('1 image x 2 tokens = 2 tokens');
  });

  it('keep the first 50 of more and say so', async () => {
    await open('/colorizer', signedIn({ tokens: 1000 }), 'Colorizer');
    chooseFiles(...images(53));
    await waitFor(() => expect(tiles()).toHaveLength(50));
    expect(screen.getByTestId('batch-left-out').textContent).toBe(
      'A batch holds up to 50 images. The first 50 are kept; 3 more were left out.',
    );
  });
});

describe('the cost before the run', () => {
  it.each([
    [30, 'You have 30 tokens.', 'Run 12 images', false],
    [14, 'You have 14 tokens.', 'Run the 7 images your balance covers', true],
    [1, 'You have 1 token.', null, true],
  ])('with %i tokens says what it covers', async (tokens, have, button, buy) => {
    await open('/background-remover', signedIn({ tokens }), 'Background Remover');
    chooseFiles(...images(12));
    await waitFor(() => expect(tiles()).toHaveLength(12));
    expect(costText()).toContain('12 images x 2 tokens = 24 tokens');
    expect(costText()).toContain(have);
    if (button) expect((screen.getByRole('button', { name: button }) as HTMLButtonElement).disabled).toBe(false);
    else expect(screen.queryByRole('button', { name: /^Run / })).toBeNull();
    const link = screen.queryByRole('link', { name: 'Buy tokens' });
    expect(link?.getAttribute('href') ?? null).toBe(buy ? '/tokens' : null);
  });

  it('runs only the images the balance covers', async () => {
    const { api } = await open(
      '/background-remover',
      signedIn({ tokens: 5 }, { 'POST /api/batches': { status: 400, body: { error: 'Not now.' } } }),
      'Background Remover',
    );
    chooseFiles(...images(4));
    fireEvent.click(await screen.findByRole('button', { name: 'Run the 2 images your balance covers' }));
    await waitFor(() => expect(api.callsTo('POST /api/batches')).toHaveLength(1));
    expect(api.callsTo('POST /api/batches')[0]?.body).toEqual({
      tool: 'background-remover',
      size: 2,
      names: ['IMG_100.jpg', 'IMG_101.jpg'],
    });
    // A refused batch says why and keeps the images.
    await waitFor(() => expect(screen.getByTestId('batch-message').textContent).toBe('Not now.'));
    expect(tiles()).toHaveLength(4);
  });

  it('says free previews take nothing, and runs them all', async () => {
    await open(
      '/background-remover',
      signedIn({ tokens: 0 }, { 'GET /api/tools': toolsInfoAnswer('background-remover', 'demo', 0) }),
      'Background Remover',
    );
    chooseFiles(...images(3));
    await waitFor(() => expect(costText()).toBe('3 images as free previews: no tokens are taken.'));
    expect(screen.getByRole('button', { name: 'Run 3 images' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Buy tokens' })).toBeNull();
  });

  it('asks a visitor to log in before a batch starts, as the single call does', async () => {
    const { api } = await open(
      '/background-remover',
      { 'GET /api/auth/get-session': { body: null }, 'GET /api/config': { body: {} } },
      'Background Remover',
    );
    chooseFiles(...images(2));
    fireEvent.click(await screen.findByRole('button', { name: 'Run 2 images' }));
    await waitFor(() =>
      expect(screen.getByTestId('batch-message').textContent).toBe('Please log in to remove background.'),
    );
    expect(api.callsTo('POST /api/batches')).toHaveLength(0);
  });

  it('keeps the tool’s options for every image (the Image Upscaler’s scale)', async () => {
    const { api } = await open(
      '/image-upscaler',
      signedIn(
        { tokens: 30 },
        {
          'POST /api/batches': { status: 201, body: batchOf('b-1', 2, [], { tool: 'image-upscaler' }) },
          [sendCall]: (request: FakeRequest) => ({
            status: 202,
            body: {
              jobId: 'j',
              item: (request.body as { item: number }).item,
              status: 'queued',
              charged: 1,
              balance: 29,
            },
          }),
          'GET /api/batches/b-1': { body: batchOf('b-1', 2, [], { tool: 'image-upscaler' }) },
        },
      ),
      'Image Upscaler',
    );
    chooseFiles(...images(2));
    fireEvent.click(await screen.findByRole('radio', { name: '4x' }));
    fireEvent.click(screen.getByRole('button', { name: 'Run 2 images' }));
    await waitFor(() => expect(api.callsTo(sendCall)).toHaveLength(2));
    expect(api.callsTo(sendCall).map((call) => (call.body as { scale: number }).scale)).toEqual([4, 4]);
  });
});

describe('a batch run', () => {
  it('makes the batch, puts it in the URL, and sends each image with its place and name, two at a time', async () => {
    const held: { item: number; release: (reply: FakeReply) => void }[] = [];
    const { api, router } = await open(
      '/background-remover',
      signedIn(
        { tokens: 30 },
        {
          'POST /api/batches': { status: 201, body: batchOf('b-1', 3) },
          [sendCall]: (request: FakeRequest) => {
            const { item } = request.body as { item: number };
            const reply = deferred<FakeReply>();
            held.push({ item, release: reply.resolve });
            return reply.promise;
          },
          'GET /api/batches/b-1': { body: batchOf('b-1', 3) },
        },
      ),
      'Background Remover',
    );
    chooseFiles(imageFile('a.png'), imageFile('b.png'), imageFile('c.png'));
    fireEvent.click(await screen.findByRole('button', { name: 'Run 3 images' }));
    await waitFor(() => expect(held).toHaveLength(2));
    expect(router.state.location.search).toBe('?batch=b-1');
    expect(router.state.action).toBe('REPLACE');
    // Two out; the third waits for one of them (a third sender would have marked it Sending at once).
    expect(api.callsTo(sendCall)).toHaveLength(2);
    expect(within(tileNamed('c.png')).getByTestId('batch-badge').textContent).toBe('To send');
    expect(screen.getByTestId('batch-sending').textContent).toContain('Keep this page open');
    held[0]?.release({ status: 202, body: { jobId: 'j-0', item: 0, status: 'queued', charged: 2, balance: 28 } });
    await waitFor(() => expect(held).toHaveLength(3));
    held[1]?.release({ status: 202, body: { jobId: 'j-1', item: 1, status: 'queued', charged: 2, balance: 26 } });
    // This image's tokens ran out meanwhile: refused, nothing taken, the server's sentence on its tile.
    held[2]?.release({ status: 402, body: { success: false, error: 'Not enough tokens available', balance: 26 } });
    await waitFor(() => expect(within(tileNamed('c.png')).getByTestId('batch-badge').textContent).toBe('Failed'));
    expect(tileNamed('c.png').textContent).toContain('Not enough tokens available');
    expect(tileNamed('c.png').textContent).toContain('Not charged');
    await waitFor(() => expect(balanceText()).toContain('26 tokens'));

    const bodies = api.callsTo(sendCall).map((call) => call.body as Record<string, unknown>);
    expect(bodies.map(({ item, name }) => ({ item, name }))).toEqual([
      { item: 0, name: 'a.png' },
      { item: 1, name: 'b.png' },
      { item: 2, name: 'c.png' },
    ]);
    expect(bodies[0]?.image).toMatch(/^data:image\/png;base64,/);
    expect(bodies[0]?.userId).toBe('user-1');
  });

  it('waits out a 429’s Retry-After and sends that image again', async () => {
    const asked: number[] = [];
    const { api } = await open(
      '/background-remover',
      signedIn(
        { tokens: 30 },
        {
          'POST /api/batches': { status: 201, body: batchOf('b-1', 1) },
          [sendCall]: [
            () => {
              asked.push(Date.now());
              return { status: 429, body: { success: false, error: 'Too many calls.', retryAfterSeconds: 1 } };
            },
            () => {
              asked.push(Date.now());
              return { status: 202, body: { jobId: 'j-0', item: 0, status: 'queued', charged: 2, balance: 28 } };
            },
          ],
          'GET /api/batches/b-1': { body: batchOf('b-1', 1, [batchItem('b-1', 0, 'a.png', { queuePosition: 1 })]) },
        },
      ),
      'Background Remover',
    );
    chooseFiles(imageFile('a.png'), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Run 1 image' }));
    // After the Retry-After's second (a lower bound: a busy machine only makes the wait longer).
    await waitFor(() => expect(api.callsTo(sendCall)).toHaveLength(2), { timeout: 15_000 });
    expect((asked[1] as number) - (asked[0] as number)).toBeGreaterThanOrEqual(950);
    await waitFor(() =>
      expect(within(tileNamed('a.png')).getByTestId('batch-badge').textContent).toBe('Waiting · 1st in line'),
    );
  });
});

describe('a batch opened from its URL', () => {
  const items = [
    batchItem('b-9', 0, 'IMG_0412.jpg', {
      status: 'succeeded',
      outputs: [storedImage(300)],
      resultName: 'IMG_0412-background-removed.png',
    }),
    batchItem('b-9', 1, 'cat.png', {
      status: 'failed',
      error: 'Background removal failed. Please try again.',
      refunded: 2,
    }),
    batchItem('b-9', 2, 'dog.png', { queuePosition: 3 }),
    batchItem('b-9', 3, 'fox.png', { status: 'running' }),
  ];

  it('shows the server’s images, their states, the bar, the time left, the not-sent count and the zip', async () => {
    await open(
      '/background-remover?batch=b-9',
      signedIn({}, { 'GET /api/batches/b-9': { body: batchOf('b-9', 5, items, { secondsLeft: 40 }) } }),
      'Background Remover',
    );
    await waitFor(() => expect(tiles()).toHaveLength(4));
    const badge = (name: string) => within(tileNamed(name)).getByTestId('batch-badge').textContent;
    expect([badge('IMG_0412.jpg'), badge('cat.png'), badge('dog.png'), badge('fox.png')]).toEqual([
      'Done',
      'Failed',
      'Waiting · 3rd in line',
      'Running',
    ]);
    expect(within(tileNamed('IMG_0412.jpg')).getByRole('img').getAttribute('src')).toBe(storedImage(300).thumbnailUrl);
    expect(
      within(tileNamed('IMG_0412.jpg')).getByRole('button', { name: 'Download IMG_0412-background-removed.png' }),
    ).toBeTruthy();
    expect(within(tileNamed('dog.png')).getByRole('img').getAttribute('src')).toBe(storedImage(102).thumbnailUrl);
    expect(tileNamed('cat.png').textContent).toContain('Background removal failed. Please try again.');
    expect(tileNamed('cat.png').textContent).toContain('Refunded');

    expect(screen.getByTestId('batch-counts').textContent).toBe('1 of 4 done · 1 failed');
    const bar = screen.getByRole('progressbar') as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([2, 4]);
    expect(screen.getByTestId('batch-time-left').textContent).toBe('About 40 s left');
    expect(screen.getByTestId('batch-not-sent').textContent).toContain('1 image was not sent.');
    // Two images still wait or run: the link says what the zip gives now (issue 54).
    expect(screen.getByRole('link', { name: 'Download the 1 finished' }).getAttribute('href')).toBe(
      '/api/batches/b-9/download',
    );
  });

  it('counts an image the server refused as failed with its sentence, not as not sent (issue 54)', async () => {
    const tooSmall = 'This image is too small: it needs at least 64 pixels on each side.';
    await open(
      '/background-remover?batch=b-9',
      signedIn(
        {},
        {
          'GET /api/batches/b-9': {
            body: batchOf('b-9', 4, items.slice(0, 2), { refused: [{ item: 2, name: 'tiny.png', error: tooSmall }] }),
          },
        },
      ),
      'Background Remover',
    );
    await waitFor(() => expect(tiles()).toHaveLength(3));
    expect(within(tileNamed('tiny.png')).getByTestId('batch-badge').textContent).toBe('Failed');
    expect(tileNamed('tiny.png').textContent).toContain(tooSmall);
    expect(tileNamed('tiny.png').textContent).toContain('Not charged');
    expect(screen.getByTestId('batch-counts').textContent).toBe('1 of 3 done · 2 failed');
    // Only the fourth image never came.
    expect(screen.getByTestId('batch-not-sent').textContent).toContain('1 image was not sent.');
    // All sent have ended: all there is.
    expect(screen.getByRole('link', { name: 'Download all (.zip)' })).toBeTruthy();
  });

  it('has no zip before an image is done, and stops reading once all have ended', async () => {
    const waiting = [
      batchItem('b-8', 0, 'a.png', { queuePosition: 1 }),
      batchItem('b-8', 1, 'b.png', { status: 'running' }),
    ];
    const ended = [
      batchItem('b-8', 0, 'a.png', {
        status: 'succeeded',
        outputs: [storedImage(300)],
        resultName: 'a-background-removed.png',
      }),
      batchItem('b-8', 1, 'b.png', {
        status: 'failed',
        error: 'Background removal failed. Please try again.',
        refunded: 2,
      }),
    ];
    const { api } = await open(
      '/background-remover?batch=b-8',
      signedIn(
        {},
        { 'GET /api/batches/b-8': [{ body: batchOf('b-8', 2, waiting) }, { body: batchOf('b-8', 2, ended) }] },
      ),
      'Background Remover',
    );
    await waitFor(() => expect(tiles()).toHaveLength(2));
    expect(screen.queryByRole('link', { name: 'Download all (.zip)' })).toBeNull();
    expect(screen.getByTestId('batch-counts').textContent).toBe('0 of 2 done');
    await screen.findByRole('link', { name: 'Download all (.zip)' }, { timeout: 15_000 }); // the next read, a poll later
    expect(screen.getByTestId('batch-counts').textContent).toBe('1 of 2 done · 1 failed');
    expect(screen.getByTestId('batch-charged').textContent).toBe('4 tokens taken · 2 tokens refunded');
    const reads = api.callsTo('GET /api/batches/b-8').length;
    // Past the time of the next read: a timer set after the last read's, for longer, fires after it
    // however busy the machine is.
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS + 200));
    expect(api.callsTo('GET /api/batches/b-8')).toHaveLength(reads);
  });

  it('shows an Image Analyzer image’s top keywords', async () => {
    const analyzed = batchItem('b-7', 0, 'beach.jpg', {
      tool: 'image-analyzer',
      status: 'succeeded',
      keywords: ['sunset', 'beach', 'sea', 'sky', 'sand', 'palm'].map((keyword, n) => ({ keyword, score: 1 - n / 10 })),
    });
    await open(
      '/image-analyzer?batch=b-7',
      signedIn({}, { 'GET /api/batches/b-7': { body: batchOf('b-7', 1, [analyzed], { tool: 'image-analyzer' }) } }),
      'Image Analyzer',
    );
    const keywords = await screen.findByRole('list', { name: 'Keywords of beach.jpg' });
    expect(
      within(keywords)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['sunset', 'beach', 'sea', 'sky', 'sand']);
  });

  it('says a batch is gone and offers an empty page; "New batch" clears the URL', async () => {
    const { router } = await open(
      '/background-remover?batch=b-0',
      signedIn(
        {},
        { 'GET /api/batches/b-0': { status: 404, body: { error: 'This batch does not exist, or it was deleted.' } } },
      ),
      'Background Remover',
    );
    expect((await screen.findByTestId('batch-gone')).textContent).toContain(
      'This batch does not exist, or it was deleted.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Start a new batch' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByTestId('image-input')).toBeTruthy();
  });

  it('starts empty again when the address loses the batch (the tool’s link in the menu)', async () => {
    const { router } = await open(
      '/background-remover?batch=b-9',
      signedIn({}, { 'GET /api/batches/b-9': { body: batchOf('b-9', 1, [items[0] as (typeof items)[number]]) } }),
      'Background Remover',
    );
    await waitFor(() => expect(tiles()).toHaveLength(1));
    await act(() => router.navigate('/background-remover'));
    await screen.findByText('Drop an image here or paste it');
  });

  it('opens on the batch of the latest image, as it would on a latest job, when this browser started it', async () => {
    rememberBatchStartedHere('b-9');
    const { router, api } = await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(batchCreation('b-9', 0, 'IMG_0412.jpg')),
          'GET /api/batches/b-9': { body: batchOf('b-9', 1, [items[0] as (typeof items)[number]]) },
        },
      ),
      'Background Remover',
    );
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(router.state.location.search).toBe('?batch=b-9');
    expect(api.callsTo('GET /api/creations')).toHaveLength(1);
  });

  it('starts empty when the latest image is of a batch made elsewhere (through the API), left to My Creations', async () => {
    const { router, api } = await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(batchCreation('b-7', 0, 'IMG_0412.jpg')),
          'GET /api/batches/b-7': { body: batchOf('b-7', 1, [items[0] as (typeof items)[number]]) },
        },
      ),
      'Background Remover',
    );
    await waitFor(() => expect(api.callsTo('GET /api/creations')).toHaveLength(1));
    await screen.findByText('Drop an image here or paste it');
    expect(router.state.location.search).toBe('');
    expect(api.callsTo('GET /api/batches/b-7')).toHaveLength(0);
  });

  it('opens again on the batch it ran when its tool is opened from the menu later', async () => {
    let ran = false;
    const { router } = await open(
      '/background-remover',
      signedIn(
        { tokens: 30 },
        {
          'GET /api/creations': (request: FakeRequest) =>
            ran && request.search.includes('background-remover')
              ? creationList(batchCreation('b-1', 0, 'a.png'))
              : creationList(),
          'POST /api/batches': { status: 201, body: batchOf('b-1', 2) },
          [sendCall]: (request: FakeRequest) => {
            const { item } = request.body as { item: number };
            return {
              status: 202,
              body: { jobId: `j-${item}`, item, status: 'queued', charged: 2, balance: 28 - item * 2 },
            };
          },
          'GET /api/batches/b-1': {
            body: batchOf('b-1', 2, [batchItem('b-1', 0, 'a.png'), batchItem('b-1', 1, 'b.png')]),
          },
        },
      ),
      'Background Remover',
    );
    chooseFiles(imageFile('a.png'), imageFile('b.png'));
    fireEvent.click(await screen.findByRole('button', { name: 'Run 2 images' }));
    await waitFor(() => expect(router.state.location.search).toBe('?batch=b-1'));
    ran = true;
    await act(() => router.navigate('/colorizer'));
    await screen.findByRole('heading', { level: 1, name: 'Colorizer' });
    await act(() => router.navigate('/background-remover'));
    await waitFor(() => expect(router.state.location.search).toBe('?batch=b-1'));
    await waitFor(() => expect(tiles()).toHaveLength(2));
  });

  it('"New batch" returns to the empty page', async () => {
    const { router } = await open(
      '/background-remover?batch=b-9',
      signedIn({}, { 'GET /api/batches/b-9': { body: batchOf('b-9', 1, [items[0] as (typeof items)[number]]) } }),
      'Background Remover',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'New batch' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByText('Drop an image here or paste it')).toBeTruthy();
  });
});
