// delay: holds the request before the broker sees it (direction: 'request'),
// or the broker's answer before the client sees it (direction: 'response',
// default), for `ms` plus up to `jitterMs` more drawn from the seeded
// generator. A held frame holds back the later ones on its connection, as a
// slow TCP stream would, so order is never changed. Removing the rule
// releases whatever it holds at once.
import { integer, oneOf, optionalInteger } from '../validate.js';
import { defineAction } from './action.js';

const MAX_DELAY_MS = 3_600_000;

export default defineAction({
  type: 'delay',
  layer: 'frame',
  summary: "Holds the request (direction: 'request') or its answer (direction: 'response', default) for ms + up to jitterMs",
  params: ['direction', 'ms', 'jitterMs'],
  parse: (raw) => ({
    direction: oneOf(raw.direction, 'action.direction', ['request', 'response'] as const, 'response'),
    ms: integer(raw.ms, 'action.ms', { min: 0, max: MAX_DELAY_MS }),
    jitterMs: optionalInteger(raw.jitterMs, 'action.jitterMs', { min: 0, max: MAX_DELAY_MS }) ?? 0,
  }),
  fire: (p, ctx) => {
    // Draw only when there is jitter, so adding jitterMs: 0 changes nothing.
    const delayMs = p.ms + (p.jitterMs > 0 ? ctx.random.int(p.jitterMs) : 0);
    return {
      outcome: p.direction === 'request' ? { request: { kind: 'forward', delayMs } } : { request: { kind: 'forward' }, response: { kind: 'forward', delayMs } },
      detail: { direction: p.direction, ms: delayMs },
    };
  },
});
