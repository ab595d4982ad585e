// drop-response: the broker processes the request, and its answer is lost.
// then: 'close' (default) resets the connection when the answer would have
// been delivered, as a broker that crashed right after the append would;
// 'hang' keeps the connection open and never delivers that one answer, until
// the client's request timeout gives up on it. Answers to later requests on
// the connection still arrive (kafkajs matches them by correlation id; the
// Java client and librdkafka close the connection on a request timeout).
// A request without an answer (Produce with acks=0) has nothing to drop.
import { oneOf } from '../validate.js';
import { defineAction } from './action.js';

export default defineAction({
  type: 'drop-response',
  layer: 'frame',
  summary: "The broker processes the request; its answer is lost, then the connection resets (then: 'close', default) or stays silent (then: 'hang')",
  params: ['then'],
  parse: (raw) => ({ then: oneOf(raw.then, 'action.then', ['close', 'hang'] as const, 'close') }),
  fire: (p) => ({
    outcome: { request: { kind: 'forward' }, response: p.then === 'close' ? { kind: 'close' } : { kind: 'drop' } },
    detail: { then: p.then },
  }),
});
