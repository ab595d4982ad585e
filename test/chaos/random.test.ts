// The seeded generator: same seed, same stream; forks independent of use.
import { SeededRandom, isValidSeed } from '../../src/chaos/random.js';

const draw = (r: SeededRandom, n: number) => Array.from({ length: n }, () => r.nextUint32());

test('the same seed gives the same stream, another seed another one', () => {
  expect(draw(new SeededRandom(7), 50)).toEqual(draw(new SeededRandom(7), 50));
  expect(draw(new SeededRandom(7), 50)).not.toEqual(draw(new SeededRandom(8), 50));
  expect(draw(new SeededRandom(0), 5)).not.toEqual(draw(new SeededRandom(1), 5));
});

test('next() stays in [0, 1) and int(max) in [0, max], covering the range', () => {
  const r = new SeededRandom(123);
  const seen = new Set<number>();
  for (let i = 0; i < 10_000; i++) {
    const x = r.next();
    expect(x >= 0 && x < 1).toBe(true);
    const k = r.int(9);
    expect(Number.isInteger(k) && k >= 0 && k <= 9).toBe(true);
    seen.add(k);
  }
  expect(seen.size).toBe(10);
});

test('it is not badly biased: about half the draws fall below 0.5', () => {
  const r = new SeededRandom(99);
  let low = 0;
  for (let i = 0; i < 20_000; i++) if (r.next() < 0.5) low++;
  expect(low).toBeGreaterThan(9_600);
  expect(low).toBeLessThan(10_400);
});

test('a fork depends on the seed and its label only, not on draws made before', () => {
  const a = new SeededRandom(5);
  const b = new SeededRandom(5);
  draw(b, 100);
  expect(draw(a.fork('rule-1'), 20)).toEqual(draw(b.fork('rule-1'), 20));
  expect(draw(a.fork('rule-1'), 20)).not.toEqual(draw(a.fork('rule-2'), 20));
  expect(draw(new SeededRandom(6).fork('rule-1'), 20)).not.toEqual(draw(a.fork('rule-1'), 20));
});

test('seeds are whole numbers from 0 to 2^32-1', () => {
  expect(isValidSeed(0)).toBe(true);
  expect(isValidSeed(4294967295)).toBe(true);
  for (const bad of [-1, 4294967296, 1.5, NaN, '3']) {
    expect(isValidSeed(bad)).toBe(false);
    expect(() => new SeededRandom(bad as number)).toThrow(RangeError);
  }
});
