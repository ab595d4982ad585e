// slice: writes the frame (the broker's answer, direction: 'response',
// default; or the request, direction: 'request') as many small TCP writes
// of `bytes` bytes, `delayMs` apart (default 0: one event-loop turn apart).
// Clients must reassemble frames from partial reads. The frame holds back
// the later ones on its connection; removing the rule writes the rest at
// once. An answer being sliced is never forwarded cut-through.
import { integer, oneOf, optionalInteger } from '../validate.js';
import { defineAction } from './action.js';

export default defineAction({
  type: 'slice',
  layer: 'frame',
  summary: "Writes the answer (direction: 'response', default) or the request in pieces of `bytes`, delayMs apart",
  params: ['bytes', 'delayMs', 'direction'],
  parse: (raw) => ({
    bytes: integer(raw.bytes, 'action.bytes', { min: 1, max: 1 << 20 }),
    delayMs: optionalInteger(raw.delayMs, 'action.delayMs', { min: 0, max: 60_000 }) ?? 0,
    direction: oneOf(raw.direction, 'action.direction', ['request', 'response'] as const, 'response'),
  }),
  fire: (p) => {
    const pace = { bytes: p.bytes, everyMs: p.delayMs };
    return {
      outcome: p.direction === 'request' ? { request: { kind: 'forward', pace } } : { request: { kind: 'forward' }, response: { kind: 'forward', pace } },
      detail: { direction: p.direction, bytes: p.bytes, delayMs: p.delayMs },
    };
  },
});
