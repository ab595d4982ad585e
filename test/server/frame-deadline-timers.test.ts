// The bound on a begun request frame (slow clients), on jest's fake clock.
import { jest } from '@jest/globals';
import { FrameDeadline } from '../../src/server/frame-deadline.js';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function deadline() {
  const expired: number[] = [];
  return { d: new FrameDeadline(100, (ms) => expired.push(ms)), expired };
}

test('a frame begun and not finished within the bound expires', () => {
  const { d, expired } = deadline();
  d.update(10);
  jest.advanceTimersByTime(99);
  d.update(20); // more bytes of the same frame do not restart the bound
  expect(expired).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(expired).toEqual([100]);
});

test('a read that finishes a frame starts the bound again for the frame begun after it, even if the buffer never empties', () => {
  const { d, expired } = deadline();
  d.update(10);
  for (let i = 0; i < 5; i++) {
    jest.advanceTimersByTime(60);
    d.update(10, 1);
  }
  expect(expired).toEqual([]);
  jest.advanceTimersByTime(100);
  expect(expired).toEqual([100]);
});

test('an empty buffer stops the bound; update(0) while the connection is not read suspends it', () => {
  const { d, expired } = deadline();
  d.update(10);
  jest.advanceTimersByTime(90);
  d.update(0);
  jest.advanceTimersByTime(500);
  expect(expired).toEqual([]);
  d.update(10);
  jest.advanceTimersByTime(100);
  expect(expired).toEqual([100]);
});
