import { describe, expect, it } from 'vitest';
import { decodeUpright } from '../raw-image';
import { getTf } from '../tfjs-runtime';
import { fixtureImage } from './fixture-image';
import { faceKeywords, keywordsFromSeen, MIN_OBJECT_SCORE, objectKeywords, visionKeywords } from './vision-keywords';

const decodedFixture = async (name: string) => decodeUpright((await fixtureImage(name)).bytes);
const keywordsOf = async (name: string) => visionKeywords(await decodedFixture(name));

describe('visionKeywords', () => {
  it('sees a cup, so a drink, in the coffee photo, and no face', async () => {
    const words = (await keywordsOf('coffee.png')).map((k) => k.keyword);
    expect(words).toEqual(expect.arrayContaining(['cup', 'drink']));
    expect(words).not.toContain('face');
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

describe('object labels on the labelled photos', () => {
  it('does not call the cat a dog, the rocket or a circuit board a clock', async () => {
    expect((await keywordsOf('chelsea.png')).map((k) => k.keyword)).not.toContain('dog');
    expect((await keywordsOf('rocket.jpg')).map((k) => k.keyword)).not.toContain('clock');
    // centernet guesses "clock" at 0.52 for one of its capacitors.
    expect((await keywordsOf('analyzer/circuit-board.jpg')).map((k) => k.keyword)).not.toContain('clock');
  });
});

describe('the keyword rule', () => {
  const frame = { width: 600, height: 400 };
  const object = (label: string, score: number, box: [number, number, number, number] = [0, 0, 60, 40]) => ({
    label,
    score,
    box,
  });
  const words = (keywords: { keyword: string }[]) => keywords.map((k) => k.keyword);

  it(`keeps the detector's guesses from ${MIN_OBJECT_SCORE}, right 9 times in 10 on the labelled photos`, () => {
    // The wrong guesses the labelled set holds just under the threshold: a capacitor as a clock
    // (0.52), a retina as an umbrella and a smartie as an orange (0.51).
    const seen = { ...frame, objects: [object('clock', 0.52), object('umbrella', 0.51), object('person', 0.61)] };
    expect(objectKeywords(seen)).toEqual([{ keyword: 'person', score: 0.61 }]);
    expect(MIN_OBJECT_SCORE).toBeGreaterThan(0.52);
  });

  it('names an unsure species only as "animal"', () => {
    const seen = { ...frame, objects: [object('dog', MIN_OBJECT_SCORE), object('cat', 0.7)] };
    expect(words(objectKeywords(seen))).toEqual(['animal', 'cat']);
  });

  it('says what a cup, a bowl or fruit imply, and a close-up when one thing fills the frame', () => {
    const seen = {
      ...frame,
      objects: [object('cup', 0.63, [100, 50, 420, 300]), object('bowl', 0.6), object('apple', 0.58)],
    };
    expect(words(keywordsFromSeen({ ...seen, faces: [] }))).toEqual([
      'close-up',
      'cup',
      'drink',
      'bowl',
      'food',
      'apple',
      'fruit',
    ]);
    // A person filling the frame is a portrait, not a close-up; two are people.
    const people = { ...frame, faces: [], objects: [object('person', 0.8, [0, 0, 600, 400]), object('person', 0.6)] };
    expect(words(keywordsFromSeen(people))).toEqual(['person', 'people']);
  });

  it('calls one large face a portrait, and reads expressions only on faces large enough to read', () => {
    const face = (height: number, emotion = 'happy') => ({
      score: 0.9,
      box: [0, 0, height, height] as [number, number, number, number],
      emotion: [{ emotion, score: 0.9 }],
    });
    expect(words(faceKeywords({ height: 400, faces: [face(120)] }))).toEqual([
      'face',
      'person',
      'smiling',
      'happy',
      'portrait',
    ]);
    // A 28 px face was "sad" at 0.90 in the labelled set: too small for the emotion model.
    expect(words(faceKeywords({ height: 158, faces: [face(28, 'sad')] }))).toEqual(['face', 'person']);
    expect(words(faceKeywords({ height: 400, faces: [face(120), face(120)] }))).not.toContain('portrait');
  });

  it('gives each keyword once, at its best score, best first', () => {
    const seen = { ...frame, faces: [], objects: [object('cup', 0.7), object('wine glass', 0.6)] };
    expect(keywordsFromSeen(seen)).toEqual([
      { keyword: 'cup', score: 0.7 },
      { keyword: 'drink', score: 0.7 },
      { keyword: 'wine glass', score: 0.6 },
    ]);
  });
});
