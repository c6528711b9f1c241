// Background Remover and Background Swap on the local engine: the whole job (decode, resize to
// ISNet's 1024 square, the network, mask back to size, encode) against ISNet's session.run alone on
// the same pixels (timed inside the network's thread), in the same run. Targets: a 1 MP image under 3 s, job overhead under 15%.
// Run: npx tsx bench/local-models.ts background
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { cutOut, isnetGate, isnetPixels } from '../../src/server/inference/local/background/cut-out';
import { type IsnetSize, toIsnetInput } from '../../src/server/inference/local/background/isnet-model';
import { FIXTURE_IMAGES, imageInputFrom } from '../../src/server/inference/local/faces/fixture-image';
import { createLocalProvider } from '../../src/server/inference/local/local-provider';
import { decodeRgb } from '../../src/server/inference/local/raw-image';
import { SERVER_TOOLS, type ToolInput } from '../../src/server/tools/registry';
import { jobAgainstInference, type Measurement, measure, printRow } from './measure';

const signal = new AbortController().signal;

/** Grace Hopper's portrait stretched to `side` x `side`, as a JPEG upload (1024: 1 MP). */
async function upload(side: number) {
  const jpeg = await sharp(path.join(FIXTURE_IMAGES, 'grace_hopper.jpg'))
    .resize(side, side, { fit: 'fill' })
    .jpeg({ quality: 90 })
    .toBuffer();
  return imageInputFrom(jpeg);
}

/** ISNet's session.run alone (timed inside its thread) on the image's prepared input, RSS as measured. */
async function inferenceOnly(size: IsnetSize, image: Awaited<ReturnType<typeof upload>>): Promise<Measurement> {
  const input = toIsnetInput(await isnetPixels(await decodeRgb(image.bytes)));
  const { result, figures } = await measure('inference', () => isnetGate(size).run((session) => session.run(input)));
  return { ...figures, ms: result.runMs };
}

/** The process's peak resident memory so far (the kernel's high-water mark, threads included). */
const highWaterMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;

for (const size of ['small', 'medium'] as const) {
  const provider = createLocalProvider(SERVER_TOOLS, { backgroundModel: size });
  // Loading is a one-off per server process: outside the figures, then one warm-up run.
  const load = await measure('load', () => isnetGate(size).run(async () => undefined));
  console.log(`ISNet ${size}: load ${load.figures.ms.toFixed(0)} ms, RSS ${load.figures.peakRssMb.toFixed(0)} MB`);
  await cutOut(await decodeRgb((await upload(256)).bytes), size);

  const cases: { side: number; tool: 'background-remover' | 'background-swap' }[] =
    size === 'small'
      ? [
          { side: 512, tool: 'background-remover' },
          { side: 1024, tool: 'background-remover' },
          { side: 1024, tool: 'background-swap' },
        ]
      : [{ side: 1024, tool: 'background-remover' }];
  for (const { side, tool } of cases) {
    const image = await upload(side);
    const input: ToolInput =
      tool === 'background-remover'
        ? { tool, image }
        : { tool, image, prompt: 'a sunny beach with palm trees', numOutputs: 4 };
    // CPU time of the whole process too: on a shared machine it is steadier than wall time.
    const cpuBefore = process.cpuUsage();
    const { job, inference } = await jobAgainstInference(
      () => provider.run(input, signal),
      () => inferenceOnly(size, image),
    );
    const cpu = process.cpuUsage(cpuBefore);
    const label = tool === 'background-swap' ? `swap x4 ${size}` : `remover ${size}`;
    printRow(label, `${side} px`, job, inference);
    console.log(
      `${''.padEnd(32)}CPU per job + inference ${((cpu.user + cpu.system) / 3000).toFixed(0)} ms, process peak RSS so far ${highWaterMb().toFixed(0)} MB`,
    );
  }
}
