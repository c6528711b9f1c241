import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeRgb, type RawImage } from '../raw-image';
import { getTf } from '../tfjs-runtime';
import { detectFaces, type FaceBox } from './detect-faces';
import { fixtureImage } from './fixture-image';

const facesIn = async (name: string) => {
  const image = await decodeRgb((await fixtureImage(name)).bytes);
  return { image, faces: await detectFaces(image) };
};

function onlyFace(faces: FaceBox[]): FaceBox {
  expect(faces).toHaveLength(1);
  const [face] = faces;
  if (!face) throw new Error('no face');
  return face;
}

async function enlarged(image: RawImage, factor: number): Promise<RawImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(image.width * factor, image.height * factor)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

describe('detectFaces', () => {
  it('finds the face in the astronaut portrait, in the upper middle of the image', async () => {
    const { image, faces } = await facesIn('astronaut.png');
    const face = onlyFace(faces);
    expect(face.score).toBeGreaterThan(0.8);
    // Eileen Collins' face is ~150 px wide, left of the middle and high in the 512 px photo.
    expect(face.x).toBeGreaterThan(100);
    expect(face.y).toBeLessThan(150);
    expect(face.width).toBeGreaterThan(100);
    expect(face.width).toBeLessThan(250);
    expect(face.x + face.width).toBeLessThanOrEqual(image.width);
    expect(face.y + face.height).toBeLessThanOrEqual(image.height);
  });

  it('finds the face in the Grace Hopper portrait', async () => {
    const face = onlyFace((await facesIn('grace_hopper.jpg')).faces);
    expect(face.score).toBeGreaterThan(0.8);
    expect(face.width).toBeGreaterThan(200);
  });

  it('finds no face in a cup of coffee', async () => {
    expect((await facesIn('coffee.png')).faces).toEqual([]);
  });

  it('finds the same face in a 4x larger copy, in the larger copy’s pixels', async () => {
    const small = await facesIn('astronaut.png');
    const face = onlyFace(small.faces);
    const large = onlyFace(await detectFaces(await enlarged(small.image, 4)));
    expect(Math.abs(large.x / 4 - face.x)).toBeLessThan(10);
    expect(Math.abs(large.y / 4 - face.y)).toBeLessThan(10);
    expect(Math.abs(large.width / 4 - face.width)).toBeLessThan(15);
  });

  it('leaves no tensor behind: a server runs it for every job', async () => {
    const { image } = await facesIn('grace_hopper.jpg');
    const tf = await getTf();
    const before = tf.memory().numTensors;
    await detectFaces(image);
    await detectFaces(image);
    expect(tf.memory().numTensors).toBe(before);
  });
});
