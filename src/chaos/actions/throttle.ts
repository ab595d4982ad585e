// throttle: bandwidth, at `bytesPerSecond`, in one of two scopes.
//
// scope 'frame' (default): writes the frame the rule fired on (the broker's
// answer, direction 'response', default; the request, 'request'; or both)
// at that rate, in pieces every 10 ms (one byte at a time, further apart,
// below 100 B/s). A frame being written holds back the later ones on its
// connection; an answer being throttled is never forwarded cut-through.
//
// scope 'connection': like Toxiproxy's bandwidth toxic. Once the rule fires
// for a connection, that connection's byte stream in `direction` ('both'
// for both ways) is held to the rate (a token bucket, ../stream-throttle.ts)
// until the rule is removed: every byte, whichever request it belongs to,
// cut-through answers included, in order. Firing again on the same
// connection changes nothing. Match a client id or a node to throttle a
// client's link or every link to a node.
//
// Either way, removing the rule writes whatever waits at once.
import { integer, oneOf } from '../validate.js';
import type { Pace, StreamLimit } from './action.js';
import { defineAction } from './action.js';

const TICK_MS = 10;

/** Pieces that add up to bytesPerSecond. */
export function paceFor(bytesPerSecond: number): Pace {
  if (bytesPerSecond * TICK_MS < 1000) return { bytes: 1, everyMs: Math.round(1000 / bytesPerSecond) };
  return { bytes: Math.round((bytesPerSecond * TICK_MS) / 1000), everyMs: TICK_MS };
}

const DIRECTIONS = { request: ['request'], response: ['response'], both: ['request', 'response'] } as const;

export default defineAction({
  type: 'throttle',
  layer: 'frame',
  summary: "Limits bandwidth to bytesPerSecond: the frame the rule fired on (scope: 'frame', default), or the connection's byte stream until the rule goes (scope: 'connection')",
  params: ['bytesPerSecond', 'direction', 'scope'],
  parse: (raw) => ({
    bytesPerSecond: integer(raw.bytesPerSecond, 'action.bytesPerSecond', { min: 1, max: 1 << 30 }),
    direction: oneOf(raw.direction, 'action.direction', ['request', 'response', 'both'] as const, 'response'),
    scope: oneOf(raw.scope, 'action.scope', ['frame', 'connection'] as const, 'frame'),
  }),
  fire: (p) => {
    if (p.scope === 'connection') {
      const limits: StreamLimit[] = DIRECTIONS[p.direction].map((direction) => ({ direction, bytesPerSecond: p.bytesPerSecond }));
      return { outcome: { request: { kind: 'forward' } }, limits, detail: { scope: 'connection', direction: p.direction, bytesPerSecond: p.bytesPerSecond } };
    }
    const pace = paceFor(p.bytesPerSecond);
    const request = p.direction === 'response' ? { kind: 'forward' as const } : { kind: 'forward' as const, pace };
    return {
      outcome: p.direction === 'request' ? { request } : { request, response: { kind: 'forward', pace } },
      detail: { direction: p.direction, bytesPerSecond: p.bytesPerSecond },
    };
  },
});
