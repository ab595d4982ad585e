// corrupt: damages record batches on their way through. On a Produce request
// every batch's CRC is flipped, so the broker answers CORRUPT_MESSAGE
// (retriable in Kafka: kafkajs and the Java producer resend the intact
// batch; librdkafka takes it as permanent and fails the delivery). On a Fetch answer,
// mode 'crc' (default) flips the CRC of every batch in it (a client that
// checks CRCs refuses it: the Java consumer's check.crcs, librdkafka's
// check.crcs); mode 'value' re-encodes each data batch with the same
// offsets, keys, headers and timestamps, garbage values (from the seeded
// generator) and a valid CRC, for deserialisation paths. Other requests, and
// a Produce with mode 'value', pass untouched (the event says so). The
// bytes are rewritten by the proxy core (../rewrite.ts); a rewritten answer
// is never forwarded cut-through.
import { ApiKey } from '../../protocol/messages/api-key.js';
import { oneOf } from '../validate.js';
import { FORWARD, defineAction } from './action.js';

export default defineAction({
  type: 'corrupt',
  layer: 'frame',
  summary: "Damages record batches: a Produce's CRCs (the broker answers CORRUPT_MESSAGE), a Fetch answer's CRCs (mode: 'crc') or values (mode: 'value')",
  params: ['mode'],
  parse: (raw) => ({ mode: oneOf(raw.mode, 'action.mode', ['crc', 'value'] as const, 'crc') }),
  fire: (p, ctx) => {
    const { apiKey } = ctx.request;
    if (apiKey === ApiKey.Produce && p.mode === 'crc') {
      return { outcome: { request: { kind: 'forward', rewrite: [{ type: 'corrupt-crc' }] } }, detail: { mode: 'crc', direction: 'request' } };
    }
    if (apiKey === ApiKey.Fetch) {
      const rewrite = p.mode === 'crc' ? ({ type: 'corrupt-crc' } as const) : ({ type: 'corrupt-value', seed: ctx.random.nextUint32() } as const);
      return { outcome: { request: { kind: 'forward' }, response: { kind: 'forward', rewrite: [rewrite] } }, detail: { mode: p.mode, direction: 'response' } };
    }
    return { outcome: FORWARD, detail: { mode: p.mode, skipped: `nothing to corrupt in ${ctx.request.apiName}${apiKey === ApiKey.Produce ? " with mode 'value'" : ''}` } };
  },
});
