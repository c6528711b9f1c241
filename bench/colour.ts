// bench/colour: whether a photo tagged with a wide-gamut ICC profile comes back from the image tools
// looking the same (issue 41, "Files designers can use as they are"). Runs the real server (`npm
// start`: one process, embedded database, the local engine where it serves a tool) and sends photos
// of test/fixtures/images, reduced to 512 px on their longer side and painted with a grid of
// saturated patches, through each image tool that takes an upload, by its HTTP route: a general
// photo (coffee) for the upscalers and the Colorizer, a portrait (Grace Hopper, the patches on her
// uniform: away from the face, inside the cut-out) for Fix a Face, the Background Remover,
// Background Swap and Metamorphose. Each photo goes three ways, the same numbers each time: tagged
// Display P3 (sharp's built-in profile) and tagged Adobe RGB (1998) (test/support/icc-profiles.ts),
// the profile attached without converting the numbers, so that the saturated patches lie partly
// outside sRGB; and untagged (sRGB), the control. Each result is asked for in the tool's default format.
// Input and output are converted to sRGB as sharp does by default (an embedded profile to 8-bit
// sRGB, an untagged file taken as sRGB); each patch's central half (its position scaled by the
// output's size against the input's; only fully opaque pixels, alpha 255) is averaged, and CIEDE2000
// taken between the input's and the output's means. Printed per tool and tagging: the output's
// format and profile, the mean and max difference over the patches, and the same unclipped (the
// numbers read through the file's profile as linear sRGB beyond 0-1), for information: 8-bit sRGB
// clips a wide-gamut red or green to sRGB's own whatever the profile said, so on those patches the
// issue's measure cannot see a lost profile. The line above the table says what a lost profile
// would read (the tagged photo against its numbers taken as sRGB): against the bar, how much the
// measure can see.
// Wanted (issue 41), for the tools that do not mean to change colour (Image Upscaler, Creative
// Upscaler, Fix a Face, Background Remover): on the tagged photos a mean under 2 and a max under 5.
// The Colorizer, Background Swap and Metamorphose are printed for information, and tools the demo
// serves here (labelled placeholders) are shown as such and left out of the verdict. A missed bar
// prints FAIL; the exit code is 1 only when a call fails.
//   npm run bench:colour -- [--tools image-upscaler,fix-a-face] [--side 512] [--save dir]
// --side: the photos' longer side in px (the patches scale with it; the short check in benches.test uses 128).
// --save: writes each input and output there, to look at where a patch went.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { ServerProcess } from '../e2e/support/server';
import type { ToolInfo } from '../src/contract/tool-responses';
import { type ImageToolId, type ToolId, toolById } from '../src/contract/tools';
import { pngWithMetadata } from '../src/server/images/finishing/embedded-metadata';
import { adobeRgbProfile, profileDescription, profileToLinearSrgb } from '../test/support/icc-profiles';
import { ciede2000, type Lab, linearSrgbToLab, srgbToLab } from './colour/ciede2000';
import { arg } from './load/harness';
import { type ServerClient, serverWithUser, sleep } from './server-client';

const PHOTOS = path.resolve(import.meta.dirname, '../test/fixtures/images');
const POLL_MS = 1000;
/** The photos' longer side (`--side`, default 512); the patches scale with it. */
const LONG_SIDE = arg('side', 512);
const SCALE = LONG_SIDE / 512;
const WANT = { mean: 2, max: 5 };

type Rgb = [number, number, number];
type Photo = 'general' | 'portrait';
type ToolPlan = { id: ImageToolId; photo: Photo; wanted: boolean; body: (image: string) => Record<string, unknown> };

/** The tools that take an upload and return an image, in the order printed; `wanted`: held to the bar. */
const TOOLS: ToolPlan[] = [
  { id: 'image-upscaler', photo: 'general', wanted: true, body: (image) => ({ image, scale: 2 }) },
  { id: 'creative-upscaler', photo: 'general', wanted: true, body: (image) => ({ image }) },
  { id: 'fix-a-face', photo: 'portrait', wanted: true, body: (image) => ({ image }) },
  { id: 'background-remover', photo: 'portrait', wanted: true, body: (image) => ({ image }) },
  { id: 'colorizer', photo: 'general', wanted: false, body: (image) => ({ image }) },
  {
    id: 'background-swap',
    photo: 'portrait',
    wanted: false,
    body: (image) => ({ image, prompt: 'a quiet library with warm light' }),
  },
  {
    id: 'metamorphose',
    photo: 'portrait',
    wanted: false,
    body: (image) => ({ main_face_image: image, prompt: 'a portrait in a sunlit garden' }),
  },
];

const SAVE_DIR = process.argv.includes('--save')
  ? path.resolve(process.argv[process.argv.indexOf('--save') + 1] ?? '.')
  : null;

function chosenTools(): ToolPlan[] {
  const i = process.argv.indexOf('--tools');
  if (i < 0) return TOOLS;
  const ids = (process.argv[i + 1] ?? '').split(',').filter(Boolean);
  const unknown = ids.filter((id) => !TOOLS.some((tool) => tool.id === id));
  if (ids.length === 0 || unknown.length > 0)
    throw new Error(`--tools: a comma-separated list of ${TOOLS.map((tool) => tool.id).join(', ')}`);
  return TOOLS.filter((tool) => ids.includes(tool.id));
}

/**
 * The patches, in numbers of the photo's own space: the six full-saturation primaries and
 * secondaries, a skin tone and a mid grey, and four strong colours short of full saturation. In
 * Display P3 and Adobe RGB the first six lie (partly) outside sRGB, which 8-bit sRGB clips to
 * sRGB's own primaries whatever the profile; the last row's colours stay inside or near sRGB, so
 * that a lost profile shows in the measure too.
 */
const PATCHES: { name: string; rgb: Rgb }[] = [
  { name: 'red', rgb: [255, 0, 0] },
  { name: 'green', rgb: [0, 255, 0] },
  { name: 'blue', rgb: [0, 0, 255] },
  { name: 'cyan', rgb: [0, 255, 255] },
  { name: 'magenta', rgb: [255, 0, 255] },
  { name: 'yellow', rgb: [255, 255, 0] },
  { name: 'skin', rgb: [224, 172, 140] },
  { name: 'grey', rgb: [128, 128, 128] },
  { name: 'orange', rgb: [230, 120, 40] },
  { name: 'deep red', rgb: [200, 40, 40] },
  { name: 'leaf green', rgb: [60, 180, 60] },
  { name: 'pink', rgb: [230, 130, 170] },
];
const PATCH = Math.round(36 * SCALE);
const GAP = Math.max(2, Math.round(6 * SCALE));
const COLUMNS = 6;
const GRID = { width: COLUMNS * (PATCH + GAP) - GAP, height: 2 * (PATCH + GAP) - GAP };

type Rect = { left: number; top: number; width: number; height: number };
type Source = { file: string; name: string; grid: (width: number, height: number) => { left: number; top: number } };
const SOURCES: Record<Photo, Source> = {
  // On the wood at the top left, clear of the cup.
  general: {
    file: 'coffee.png',
    name: 'coffee',
    grid: () => ({ left: Math.round(12 * SCALE), top: Math.round(12 * SCALE) }),
  },
  // On the uniform, across the lower middle: the subject the cut-out keeps, well below the face.
  portrait: {
    file: 'grace_hopper.jpg',
    name: 'Grace Hopper',
    grid: (width, height) => ({ left: Math.round((width - GRID.width) / 2), top: height - GRID.height - 14 }),
  },
};

type Tagging = { label: string; icc: Buffer | null };
type TestPhoto = { tagging: Tagging; png: Buffer; width: number; height: number; patches: Rect[] };

/** The photo at LONG_SIDE px with its patches painted, as PNG numbers that mean nothing yet (untagged). */
async function paintedPhoto(photo: Photo): Promise<{ png: Buffer; width: number; height: number; patches: Rect[] }> {
  const source = SOURCES[photo];
  const { data, info } = await sharp(readFileSync(path.join(PHOTOS, source.file)))
    .resize({ width: LONG_SIDE, height: LONG_SIDE, fit: 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { left, top } = source.grid(info.width, info.height);
  const patches = PATCHES.map((patch, i) => {
    const rect = {
      left: left + (i % COLUMNS) * (PATCH + GAP),
      top: top + Math.floor(i / COLUMNS) * (PATCH + GAP),
      width: PATCH,
      height: PATCH,
    };
    for (let y = rect.top; y < rect.top + rect.height; y++)
      for (let x = rect.left; x < rect.left + rect.width; x++) data.set(patch.rgb, (y * info.width + x) * 3);
    return rect;
  });
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .png()
    .toBuffer();
  return { png, width: info.width, height: info.height, patches };
}

/**
 * One of sharp's built-in profiles as bytes: sharp names 'p3' and 'srgb' but only attaches them by
 * converting to them. sRGB's is how an untagged file is read.
 */
async function builtInProfile(name: 'p3' | 'srgb'): Promise<Buffer> {
  const converted = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } })
    .withIccProfile(name)
    .png()
    .toBuffer();
  const { icc } = await sharp(converted).metadata();
  if (!icc) throw new Error(`sharp's conversion to ${name} attached no profile`);
  return icc;
}

/**
 * The painted photo tagged each way, the profile attached to the PNG as it is (its numbers now
 * mean the profile's colours); checked: the file carries the profile and the numbers are the painted ones.
 */
async function testPhotos(photo: Photo, taggings: Tagging[]): Promise<TestPhoto[]> {
  const painted = await paintedPhoto(photo);
  const numbers = await sharp(painted.png).raw().toBuffer();
  return Promise.all(
    taggings.map(async (tagging) => {
      const png = tagging.icc ? pngWithMetadata(painted.png, { icc: tagging.icc }) : painted.png;
      const { icc } = await sharp(png).metadata();
      if (tagging.icc ? !icc?.equals(tagging.icc) : icc) throw new Error(`${tagging.label}: the profile did not stick`);
      if (!(await sharp(png, { ignoreIcc: true }).raw().toBuffer()).equals(numbers))
        throw new Error(`${tagging.label}: attaching the profile changed the numbers`);
      return { ...painted, png, tagging };
    }),
  );
}

/** A decoded image as sharp gives it: RGBA numbers, its size, its profile (null: untagged). */
type Decoded = { srgb: Buffer; stored: Buffer; width: number; height: number; icc: Buffer | null; format: string };

async function decoded(bytes: Buffer): Promise<Decoded> {
  const meta = await sharp(bytes).metadata();
  // sharp's default: the embedded profile converted to sRGB (8-bit, clipped).
  const srgb = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  // The numbers as stored, for reading through the profile unclipped.
  const stored = await sharp(bytes, { ignoreIcc: true }).ensureAlpha().raw().toBuffer();
  return {
    srgb: srgb.data,
    stored,
    width: srgb.info.width,
    height: srgb.info.height,
    icc: meta.icc ?? null,
    format: meta.format ?? '?',
  };
}

type PatchReading = { srgb: Lab; unclipped: Lab | null } | null;

/**
 * Each patch's colour in `image`: the mean of the central half of its rectangle (the input's,
 * scaled to this image's size) over the fully opaque pixels, as sRGB (sharp's conversion) and
 * unclipped (the stored numbers' mean through the profile; untagged read as sRGB). Null for a patch
 * under half of whose central pixels are opaque (cut away).
 */
function readPatches(image: Decoded, input: TestPhoto, srgbProfile: Buffer): PatchReading[] {
  const [sx, sy] = [image.width / input.width, image.height / input.height];
  const toLinear = profileToLinearSrgb(image.icc ?? srgbProfile);
  return input.patches.map((patch) => {
    const x0 = Math.round((patch.left + patch.width / 4) * sx);
    const x1 = Math.round((patch.left + (patch.width * 3) / 4) * sx);
    const y0 = Math.round((patch.top + patch.height / 4) * sy);
    const y1 = Math.round((patch.top + (patch.height * 3) / 4) * sy);
    const srgb: Rgb = [0, 0, 0];
    const stored: Rgb = [0, 0, 0];
    let opaque = 0;
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const at = (y * image.width + x) * 4;
        if (image.srgb[at + 3] !== 255) continue;
        opaque++;
        for (const c of [0, 1, 2] as const) {
          srgb[c] += image.srgb[at + c] as number;
          stored[c] += image.stored[at + c] as number;
        }
      }
    if (opaque < ((x1 - x0) * (y1 - y0)) / 2) return null;
    const mean = (sums: Rgb) => sums.map((sum) => sum / opaque) as Rgb;
    return {
      srgb: srgbToLab(mean(srgb)),
      unclipped: toLinear ? linearSrgbToLab(toLinear(mean(stored))) : null,
    };
  });
}

type Differences = { mean: number; max: number; worst: string } | null;

function differences(
  input: PatchReading[],
  output: PatchReading[],
  pick: (reading: NonNullable<PatchReading>) => Lab | null,
): Differences {
  const found: { name: string; dE: number }[] = [];
  input.forEach((reading, i) => {
    const [a, b] = [reading && pick(reading), output[i] && pick(output[i] as NonNullable<PatchReading>)];
    if (a && b) found.push({ name: PATCHES[i]?.name ?? '?', dE: ciede2000(a, b) });
  });
  if (found.length === 0) return null;
  const worst = found.reduce((a, b) => (b.dE > a.dE ? b : a));
  return { mean: found.reduce((sum, f) => sum + f.dE, 0) / found.length, max: worst.dE, worst: worst.name };
}

/**
 * What the measure reads when a tool loses the profile (the tagged photo's numbers taken as sRGB):
 * how far the bar is from a tool that drops it.
 */
async function lostProfileReads(photos: TestPhoto[], srgbProfile: Buffer): Promise<string> {
  const untagged = photos.find((photo) => !photo.tagging.icc);
  if (!untagged) return '';
  const asSrgb = readPatches(await decoded(untagged.png), untagged, srgbProfile);
  const figures = [];
  for (const photo of photos.filter((p) => p.tagging.icc)) {
    const own = readPatches(await decoded(photo.png), photo, srgbProfile);
    const [srgb, unclipped] = [
      differences(own, asSrgb, (reading) => reading.srgb),
      differences(own, asSrgb, (reading) => reading.unclipped),
    ];
    figures.push(
      `${photo.tagging.label} ${figure(srgb?.mean)} / ${figure(srgb?.max)} (unclipped ${figure(unclipped?.mean)} / ${figure(unclipped?.max)})`,
    );
  }
  return `a lost profile would read (mean / max): ${figures.join(', ')}`;
}

type Answer = { jobId?: string; success?: boolean; demo?: boolean; output?: string | string[] | null; error?: string };
type JobRead = { status: string; demo: boolean; output: string[] | null; error: string | null };

/** One call of the tool's route, followed at GET /api/jobs/:id should it answer 202: its first output's URL. */
async function callTool(
  api: ServerClient,
  plan: ToolPlan,
  image: string,
): Promise<{ url: string; demo: boolean; seconds: number }> {
  const started = performance.now();
  const first = await api.json<Answer>('POST', `/api${toolById(plan.id).apiPath}`, plan.body(image));
  const done = (output: string | string[] | null | undefined, demo: boolean | undefined) => {
    const url = Array.isArray(output) ? output[0] : output;
    if (!url) throw new Error('succeeded without an output');
    return { url, demo: demo === true, seconds: (performance.now() - started) / 1000 };
  };
  if (first.status === 200 && first.body.success) return done(first.body.output, first.body.demo);
  if (first.status !== 202 || !first.body.jobId)
    throw new Error(`${first.status} ${first.body.error ?? JSON.stringify(first.body).slice(0, 300)}`);
  for (;;) {
    await sleep(POLL_MS);
    const job = await api.json<JobRead>('GET', `/api/jobs/${first.body.jobId}`);
    if (job.body.status === 'succeeded') return done(job.body.output, job.body.demo);
    if (job.body.status !== 'queued' && job.body.status !== 'running')
      throw new Error(`job ${job.body.status}: ${job.body.error ?? ''}`);
  }
}

/** The server on a fresh data dir, a verified user with the tokens every call takes, signed in. */
async function setUp(
  dataDir: string,
  holder: { server?: ServerProcess },
  tools: ToolPlan[],
  calls: number,
): Promise<{ api: ServerClient; info: Map<ToolId, ToolInfo> }> {
  const { api, tools: served } = await serverWithUser(dataDir, holder, {
    label: 'colour',
    tokensFor: ({ tools: served }) =>
      tools.reduce((sum, tool) => sum + (served.find((info) => info.id === tool.id)?.price ?? 0) * calls, 0),
  });
  return { api, info: new Map(served.tools.map((tool) => [tool.id, tool])) };
}

const figure = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(2));

/** The output's profile as the table shows it: its description, or untagged. */
const profileLabel = (image: Decoded) =>
  image.icc ? `"${(profileDescription(image.icc) ?? '(no description)').slice(0, 28)}"` : 'untagged';

type Row = {
  plan: ToolPlan;
  tagging: string;
  served: string;
  demo: boolean;
  file: string;
  profile: string;
  srgb: Differences;
  unclipped: Differences;
  patches: string;
  seconds: number;
  lost: string[];
};

const COLUMNS_OF_TABLE: [string, number][] = [
  ['tool', 19],
  ['input', 11],
  ['served by', 20],
  ['output', 16],
  ['output profile', 32],
  ['dE sRGB mean  max', 30],
  ['unclipped mean  max', 30],
  ['patches', 9],
  ['time', 9],
  ['', 0],
];
const tableLine = (cells: string[]) =>
  cells
    .map((cell, i) => cell.padEnd(COLUMNS_OF_TABLE[i]?.[1] ?? 0))
    .join('')
    .trimEnd();
const pair = (d: Differences) =>
  d ? `${figure(d.mean).padStart(6)} ${figure(d.max).padStart(6)} (${d.worst})` : '     -      - (no patch)';

function printRow(row: Row) {
  console.log(
    tableLine([
      row.plan.id,
      row.tagging,
      row.demo ? `${row.served}, placeholder` : row.served,
      row.file,
      row.profile,
      pair(row.srgb),
      pair(row.unclipped),
      row.patches,
      `${row.seconds.toFixed(1)} s`,
      row.lost.length > 0 ? `cut away: ${row.lost.join(', ')}` : '',
    ]),
  );
}

async function main(): Promise<number> {
  const tools = chosenTools();
  const srgbProfile = await builtInProfile('srgb');
  const taggings: Tagging[] = [
    { label: 'P3', icc: await builtInProfile('p3') },
    { label: 'Adobe RGB', icc: adobeRgbProfile() },
    { label: 'sRGB', icc: null },
  ];
  const photos: Record<Photo, TestPhoto[]> = {
    general: await testPhotos('general', taggings),
    portrait: await testPhotos('portrait', taggings),
  };

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-colour-'));
  const holder: { server?: ServerProcess } = {};
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    await holder.server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  // Stopped from outside (Ctrl-C, a test's time limit): the server and its engine go too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      void cleanUp().finally(() => process.exit(130));
    });
  try {
    const { api, info } = await setUp(dataDir, holder, tools, taggings.length);
    console.log(
      `bench:colour: ${tools.length} tools x ${taggings.map((t) => t.label).join(' / ')} (sRGB: untagged, the control); ` +
        `${PATCHES.length} patches of ${PATCH} px on ${SOURCES.general.name} and ${SOURCES.portrait.name} at ${LONG_SIDE} px; ` +
        `CIEDE2000 of each patch's mean, input against output. want mean < ${WANT.mean} and max < ${WANT.max} ` +
        `for ${TOOLS.filter((t) => t.wanted)
          .map((t) => t.id)
          .join(', ')} on the tagged photos\n`,
    );
    console.log(`${await lostProfileReads(photos.general, srgbProfile)}\n`);
    console.log(tableLine(COLUMNS_OF_TABLE.map(([title]) => title)));
    const rows: Row[] = [];
    const failures: string[] = [];
    for (const plan of tools) {
      const served = info.get(plan.id)?.provider ?? '?';
      for (const input of photos[plan.photo]) {
        const image = `data:image/png;base64,${input.png.toString('base64')}`;
        try {
          const call = await callTool(api, plan, image);
          const bytes = await api.bytes(call.url);
          const output = await decoded(bytes);
          if (SAVE_DIR) {
            const name = `${plan.id}-${input.tagging.label.replace(/\W+/g, '-').toLowerCase()}`;
            mkdirSync(SAVE_DIR, { recursive: true });
            writeFileSync(path.join(SAVE_DIR, `${name}-input.png`), input.png);
            writeFileSync(path.join(SAVE_DIR, `${name}-output.${output.format}`), bytes);
          }
          const source = await decoded(input.png);
          const [before, after] = [readPatches(source, input, srgbProfile), readPatches(output, input, srgbProfile)];
          const row: Row = {
            plan,
            tagging: input.tagging.label,
            served,
            demo: call.demo,
            file: `${output.format} ${output.width}x${output.height}`,
            profile: profileLabel(output),
            srgb: differences(before, after, (reading) => reading.srgb),
            unclipped: differences(before, after, (reading) => reading.unclipped),
            patches: `${after.filter(Boolean).length}/${PATCHES.length}`,
            lost: PATCHES.filter((_, i) => !after[i]).map((patch) => patch.name),
            seconds: call.seconds,
          };
          rows.push(row);
          printRow(row);
        } catch (error) {
          const message = `${plan.id} ${input.tagging.label}: ${(error as Error).message}`;
          failures.push(message);
          console.log(tableLine([plan.id, input.tagging.label, served, `CALL FAILED: ${(error as Error).message}`]));
        }
      }
    }

    console.log(
      `\nverdict (want mean < ${WANT.mean} and max < ${WANT.max} on the tagged photos, dE sRGB and unclipped):`,
    );
    for (const plan of tools) {
      const mine = rows.filter((row) => row.plan.id === plan.id);
      if (!plan.wanted) {
        const placeholder = mine.some((row) => row.demo) ? ', and placeholders here' : '';
        console.log(`  ${plan.id.padEnd(19)}for information only (means to change the picture${placeholder})`);
        continue;
      }
      if (mine.length === 0) {
        console.log(`  ${plan.id.padEnd(19)}no result (the calls failed)`);
        continue;
      }
      if (mine.some((row) => row.demo)) {
        console.log(`  ${plan.id.padEnd(19)}placeholders here (a free preview, not a result): left out`);
        continue;
      }
      const tagged = mine.filter((row) => row.tagging !== 'sRGB');
      const judged = tagged.map((row) => {
        // Both ways: 8-bit sRGB (the measure) clips a wide-gamut colour whatever the profile
        // said, so the unclipped reading is what sees a profile lost.
        const within = (d: Differences) => d !== null && d.mean < WANT.mean && d.max < WANT.max;
        const good = within(row.srgb) && (row.unclipped === null || within(row.unclipped));
        return `${row.tagging} ${figure(row.srgb?.mean)} / ${figure(row.srgb?.max)}${good ? '' : ' (missed)'}`;
      });
      const pass = tagged.length > 0 && judged.every((text) => !text.endsWith('(missed)'));
      const control = mine.find((row) => row.tagging === 'sRGB');
      const unclipped = tagged.map(
        (row) => `${row.tagging} ${figure(row.unclipped?.mean)} / ${figure(row.unclipped?.max)}`,
      );
      console.log(
        `  ${plan.id.padEnd(19)}${pass ? 'ok  ' : 'FAIL'}  ${judged.join(', ')}` +
          (control ? ` (control sRGB ${figure(control.srgb?.mean)} / ${figure(control.srgb?.max)})` : '') +
          `; unclipped ${unclipped.join(', ')}`,
      );
    }
    if (failures.length > 0) {
      console.log(`\n${failures.length} calls failed:`);
      for (const failure of failures) console.log(`  ${failure}`);
      return 1;
    }
    return 0;
  } finally {
    await cleanUp();
  }
}

process.exit(await main());
