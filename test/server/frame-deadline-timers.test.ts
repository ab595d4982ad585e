// The bound on a begun request frame (slow clients), on jest's fake clock.
// Immediates stay real: an expired bound is judged after the next turn of
// I/O (setImmediate), which `advance` lets happen, as the event loop would.
import { jest } from '@jest/globals';
import { FrameDeadline } from '../../src/server/frame-deadline.js';

beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'clearImmediate'] }));
afterEach(() => jest.useRealTimers());

function deadline() {
  const expired: number[] = [];
  return { d: new FrameDeadline(100, (ms) => expired.push(ms)), expired };
}

/** Moves the fake clock, then lets one turn of the event loop's check phase run. */
async function advance(ms: number): Promise<void> {
  jest.advanceTimersByTime(ms);
  await new Promise((resolve) => setImmediate(resolve));
}

test('a frame begun and not finished within the bound expires', async () => {
  const { d, expired } = deadline();
  d.update(10);
  await advance(99);
  d.update(20); // more bytes of the same frame do not restart the bound
  expect(expired).toEqual([]);
  await advance(1);
  expect(expired).toEqual([100]);
});

test('a read that finishes a frame starts the bound again for the frame begun after it, even if the buffer never empties', async () => {
  const { d, expired } = deadline();
  d.update(10);
  for (let i = 0; i < 5; i++) {
    await advance(60);
    d.update(10, 1);
  }
  expect(expired).toEqual([]);
  await advance(100);
  expect(expired).toEqual([100]);
});

test('an empty buffer stops the bound; update(0) while the connection is not read suspends it', async () => {
  const { d, expired } = deadline();
  d.update(10);
  await advance(90);
  d.update(0);
  await advance(500);
  expect(expired).toEqual([]);
  d.update(10);
  await advance(100);
  expect(expired).toEqual([100]);
});

test('a read right after the timer fires (our own stall) still counts: the frame it completes does not expire', async () => {
  const { d, expired } = deadline();
  d.update(10);
  jest.advanceTimersByTime(150); // the timer runs late, as after a stall
  d.update(10, 1); // the poll phase reads the rest of the frame, and a new one begins
  await new Promise((resolve) => setImmediate(resolve));
  expect(expired).toEqual([]);
  await advance(100); // the new frame has its own full bound
  expect(expired).toEqual([100]);
});

test('cancel() between the timer and the check closes nothing', async () => {
  const { d, expired } = deadline();
  d.update(10);
  jest.advanceTimersByTime(100);
  d.cancel();
  await new Promise((resolve) => setImmediate(resolve));
  expect(expired).toEqual([]);
});
