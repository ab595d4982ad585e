// error: answers with a Kafka error code (name or number), placed in the
// fields the API uses (see ../error-responses.ts). when: 'before' (default)
// answers at once and the broker never sees the request; 'after' lets the
// broker process it and replaces its answer, so the client is told of a
// failure that did not happen (the retry then meets the broker's dedup).
// A request this proxy cannot decode resets the connection instead.
import { errorByCode, errorByName } from '../../protocol/errors.js';
import { canBuildErrorResponse } from '../error-responses.js';
import { brokerCouldAnswer, brokerErrorName } from '../kafka-answers.js';
import { describe, fail, oneOf } from '../validate.js';
import { defineAction } from './action.js';

function errorCode(v: unknown): { code: number; name: string } {
  const e = typeof v === 'number' ? errorByCode(v) : typeof v === 'string' ? errorByName(v) : undefined;
  if (!e) fail('action.code', `must be a Kafka error name (e.g. 'NOT_LEADER_OR_FOLLOWER') or code, got ${describe(v)}`);
  if (e.code === 0) fail('action.code', 'NONE is not an error');
  return { code: e.code, name: e.name };
}

export default defineAction({
  type: 'error',
  layer: 'frame',
  summary: "Answers with a Kafka error code: before the broker sees the request (when: 'before', default) or instead of its answer (when: 'after')",
  params: ['code', 'when'],
  needsBody: true,
  parse: (raw) => ({ ...errorCode(raw.code), when: oneOf(raw.when, 'action.when', ['before', 'after'] as const, 'before') }),
  // OUT_OF_ORDER_SEQUENCE_NUMBER and the other producer-state errors only for a Produce with a producer id.
  appliesTo: (p, request) => brokerCouldAnswer(p.name, request),
  fire: (p, ctx) => {
    // PRODUCER_FENCED under the name the request's version knows (INVALID_PRODUCER_EPOCH below it).
    const name = brokerErrorName(p.name, ctx.request);
    if (name !== p.name) p = { ...p, ...errorCode(name) };
    if (!ctx.request.decodable || !canBuildErrorResponse(ctx.request.apiKey)) {
      return { outcome: { request: { kind: 'close' } }, detail: { code: p.name, when: p.when, fallback: 'close', reason: 'request not decodable' } };
    }
    const answer = { kind: 'error', errorCode: p.code } as const;
    return {
      outcome: p.when === 'before' ? { request: answer } : { request: { kind: 'forward' }, response: answer },
      detail: { code: p.name, when: p.when },
    };
  },
});
