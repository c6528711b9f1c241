import { describe, expect, it } from 'vitest';
import { LABELLED_IMAGES, precisionRecall, scoreLabels } from '../analyze/labelled-images';
import { decodeUpright } from '../raw-image';
import { getTf } from '../tfjs-runtime';
import { fixtureImage } from './fixture-image';
import { visionKeywords } from './vision-keywords';

const decodedFixture = async (name: string) => decodeUpright((await fixtureImage(name)).bytes);
// What the face models add; the labelled set measures the object detector's guesses.
const FACE_WORDS = new Set([
  'face',
  'people',
  'portrait',
  'smiling',
  'happy',
  'surprised',
  'sad',
  'angry',
  'fearful',
  'disgusted',
  'neutral expression',
]);
const keywordsOf = async (name: string) => visionKeywords(await decodedFixture(name));

describe('visionKeywords', () => {
  it('sees a cup in the coffee photo, and no face', async () => {
    const keywords = await keywordsOf('coffee.png');
    expect(keywords.map((k) => k.keyword)).toContain('cup');
    expect(keywords.map((k) => k.keyword)).not.toContain('face');
  });

  it('sees a smiling person in the astronaut portrait', async () => {
    const words = (await keywordsOf('astronaut.png')).map((k) => k.keyword);
    expect(words).toEqual(expect.arrayContaining(['face', 'person', 'portrait', 'smiling', 'happy']));
  });

  it('gives each keyword once, with a score between 0 and 1, best first', async () => {
    const keywords = await keywordsOf('grace_hopper.jpg');
    expect(keywords.length).toBeGreaterThan(0);
    expect(new Set(keywords.map((k) => k.keyword)).size).toBe(keywords.length);
    for (const { score } of keywords) {
      expect(score).toBeGreaterThan(0);
      expect(score).toBeLessThanOrEqual(1);
    }
    const scores = keywords.map((k) => k.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('does nothing once cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(visionKeywords(await decodedFixture('coffee.png'), controller.signal)).rejects.toThrow(/aborted/);
  });

  it('leaves no tensor behind: a server runs it for every analysis', async () => {
    const image = await decodedFixture('astronaut.png');
    await visionKeywords(image);
    const tf = await getTf();
    const before = tf.memory().numTensors;
    await visionKeywords(image);
    await visionKeywords(image);
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('object labels on the labelled test images', () => {
  it('says nothing confidently wrong and still finds most things (precision 1, recall >= 0.8)', async () => {
    const scores = [];
    for (const image of LABELLED_IMAGES) {
      const said = (await keywordsOf(image.file)).filter((k) => !FACE_WORDS.has(k.keyword));
      scores.push(scoreLabels(image, said));
    }
    const { precision, recall } = precisionRecall(scores);
    expect(precision).toBe(1);
    expect(recall).toBeGreaterThanOrEqual(0.8);
  });

  it('does not call the cat a dog, nor the rocket a clock', async () => {
    const cat = (await keywordsOf('chelsea.png')).map((k) => k.keyword);
    expect(cat).not.toContain('dog');
    expect(cat).toContain('animal');
    expect((await keywordsOf('rocket.jpg')).map((k) => k.keyword)).not.toContain('clock');
  });
});
