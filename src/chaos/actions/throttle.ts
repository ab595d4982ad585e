// throttle: writes the frame (the broker's answer, direction: 'response',
// default; or the request, direction: 'request') at `bytesPerSecond`, in
// pieces every 10 ms (or one byte at a time, further apart, below 100 B/s).
// A rule that matches every request of a client throttles its whole link,
// since frames on a connection go out one after another. Removing the rule
// writes the rest at once. An answer being throttled is never forwarded
// cut-through.
import { integer, oneOf } from '../validate.js';
import type { Pace } from './action.js';
import { defineAction } from './action.js';

const TICK_MS = 10;

/** Pieces that add up to bytesPerSecond. */
export function paceFor(bytesPerSecond: number): Pace {
  if (bytesPerSecond * TICK_MS < 1000) return { bytes: 1, everyMs: Math.round(1000 / bytesPerSecond) };
  return { bytes: Math.round((bytesPerSecond * TICK_MS) / 1000), everyMs: TICK_MS };
}

export default defineAction({
  type: 'throttle',
  layer: 'frame',
  summary: "Writes the answer (direction: 'response', default) or the request at bytesPerSecond",
  params: ['bytesPerSecond', 'direction'],
  parse: (raw) => ({
    bytesPerSecond: integer(raw.bytesPerSecond, 'action.bytesPerSecond', { min: 1, max: 1 << 30 }),
    direction: oneOf(raw.direction, 'action.direction', ['request', 'response'] as const, 'response'),
  }),
  fire: (p) => {
    const pace = paceFor(p.bytesPerSecond);
    return {
      outcome: p.direction === 'request' ? { request: { kind: 'forward', pace } } : { request: { kind: 'forward' }, response: { kind: 'forward', pace } },
      detail: { direction: p.direction, bytesPerSecond: p.bytesPerSecond },
    };
  },
});
