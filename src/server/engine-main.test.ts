import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { cpuSecondsOf, processCpuSeconds } from './inference/local/cpu-time';
import { createEngineProcessProvider } from './inference/local/engine-host/engine-host';
import { fixtureImage, imageInputFrom } from './inference/local/faces/fixture-image';
import { ProviderError, type ToolResult } from './inference/provider';
import { SERVER_TOOLS, type ToolInput } from './tools/registry';

// The engine process as the server starts it: this entry, with the server's tools.
const provider = createEngineProcessProvider(
  { tools: SERVER_TOOLS, entry: new URL('./engine-main.ts', import.meta.url) },
  { backgroundModel: 'medium' },
);
/** A run of the engine process, with the tool's own input. */
const runOnEngine = (input: ToolInput, signal: AbortSignal) => provider.run(input, signal);
afterAll(() => provider.close());
const signal = () => new AbortController().signal;

describe('the local engine in its own process', () => {
  it('runs the models in its own process, not on this thread (issue 35)', async () => {
    // Both blocked the server's thread when they ran in it: the analyzer 1.3 s on this portrait
    // (its models' set-up and pixel loops), the upscaler's tiling and mixing 0.7 s; on a loaded
    // machine, several seconds.
    const portrait = await fixtureImage('grace_hopper.jpg');
    const photo = await imageInputFrom(
      await sharp((await fixtureImage('hubble_deep_field.jpg')).bytes)
        .resize(320)
        .jpeg()
        .toBuffer(),
    );
    // Where the runs' CPU time went: this thread against the engine process (which starts with the
    // first run, so what it used before is counted from zero then).
    const engineBefore = provider.pid ? processCpuSeconds(provider.pid) : 0;
    let results: ToolResult[] = [];
    const here = await cpuSecondsOf(async () => {
      results = await Promise.all([
        runOnEngine({ tool: 'image-analyzer', image: portrait }, signal()),
        runOnEngine({ tool: 'image-upscaler', image: photo, scale: 2 }, signal()),
      ]);
    });
    expect(provider.pid).toBeGreaterThan(0);
    expect(provider.pid).not.toBe(process.pid);
    const inEngine = processCpuSeconds(provider.pid as number) - engineBefore;
    const [analysis, upscaled] = results as [ToolResult, ToolResult];
    if (analysis.kind !== 'analysis') throw new Error(`expected an analysis, got ${analysis.kind}`);
    expect(analysis.keywords.map((k) => k.keyword)).toContain('face');
    if (upscaled.kind !== 'images') throw new Error(`expected images, got ${upscaled.kind}`);
    const [output] = upscaled.images;
    expect(Buffer.isBuffer(output?.bytes)).toBe(true);
    expect(await sharp(output?.bytes).metadata()).toMatchObject({
      format: 'webp',
      width: 640,
      height: photo.height * 2,
    });
    // The models' time is the engine's: this thread only sent the images and read the answers.
    expect(here.thisThread).toBeLessThan(inEngine / 4);
  }, 300_000);

  it("brings a failure's message for the user back from the engine process", async () => {
    const portrait = await fixtureImage('grace_hopper.jpg');
    // Dimensions past 6x's limit: the engine refuses before decoding.
    const tooLarge = { ...portrait, width: 6000, height: 6000 };
    const failure = await runOnEngine({ tool: 'image-upscaler', image: tooLarge, scale: 6 }, signal()).catch((e) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).options.userMessage).toMatch(/too large for 6x/);
  }, 60_000);

  it('stops waiting at once when the job is cancelled, and stays usable', async () => {
    const photo = await fixtureImage('hubble_deep_field.jpg');
    const controller = new AbortController();
    const run = runOnEngine({ tool: 'image-upscaler', image: photo, scale: 4 }, controller.signal);
    let outcome: unknown = 'still waiting';
    run.catch((error: unknown) => {
      outcome = error;
    });
    // The run is sent (the engine process is up from the tests before), and takes seconds there.
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('the user left'));
    // Rejected at the abort itself, without waiting for a word from the engine process.
    await new Promise((resolve) => setImmediate(resolve));
    expect(outcome).toMatchObject({ message: 'the user left' });

    const small = await imageInputFrom(await sharp(photo.bytes).resize(64, 64).png().toBuffer());
    const again = await runOnEngine({ tool: 'image-upscaler', image: small, scale: 2 }, signal());
    expect(again.kind).toBe('images');
  }, 300_000);

  it('fails a run as retryable when the engine process dies, and starts a new one for the next', async () => {
    const photo = await fixtureImage('hubble_deep_field.jpg');
    const run = runOnEngine({ tool: 'image-upscaler', image: photo, scale: 4 }, signal());
    const pid = await waitForPid();
    process.kill(pid, 'SIGKILL');
    const failure = await run.catch((e) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).options.retryable).toBe(true);

    const small = await imageInputFrom(await sharp(photo.bytes).resize(64, 64).png().toBuffer());
    const again = await runOnEngine({ tool: 'image-upscaler', image: small, scale: 2 }, signal());
    expect(again.kind).toBe('images');
    expect(provider.pid).not.toBe(pid);
  }, 300_000);
});

async function waitForPid(): Promise<number> {
  for (let i = 0; i < 100 && !provider.pid; i++) await new Promise((r) => setTimeout(r, 20));
  if (!provider.pid) throw new Error('no engine process');
  return provider.pid;
}
