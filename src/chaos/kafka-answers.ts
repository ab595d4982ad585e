// Only answers Kafka could give (docs/chaos.md, "Errors a broker can give").
// The error action asks here, per request, whether a real broker could
// answer that code to it, and under which name for its version:
// - the producer-state errors of Produce (OUT_OF_ORDER_SEQUENCE_NUMBER,
//   DUPLICATE_SEQUENCE_NUMBER, UNKNOWN_PRODUCER_ID, INVALID_PRODUCER_EPOCH)
//   go only to a Produce whose batches carry a producer id (idempotent or
//   transactional); a broker checks sequences only for those
//   (ProducerAppendInfo), so a non-idempotent Produce is not counted by such a rule;
// - PRODUCER_FENCED is sent as INVALID_PRODUCER_EPOCH where a real broker
//   does: always on Produce and TxnOffsetCommit, below v2 of EndTxn,
//   AddPartitionsToTxn and AddOffsetsToTxn, below v4 of InitProducerId.
import { ApiKey } from '../protocol/messages/api-key.js';
import { requestProducerId } from './parties.js';
import type { ProxiedRequest } from './request.js';

const PRODUCER_STATE_ERRORS = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'DUPLICATE_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH']);

/** Since which version each API knows PRODUCER_FENCED (Infinity: never, it gets INVALID_PRODUCER_EPOCH). */
const FENCED_SINCE = new Map<number, number>([
  [ApiKey.Produce, Infinity],
  [ApiKey.TxnOffsetCommit, Infinity],
  [ApiKey.EndTxn, 2],
  [ApiKey.AddPartitionsToTxn, 2],
  [ApiKey.AddOffsetsToTxn, 2],
  [ApiKey.InitProducerId, 4],
]);

/** Whether a real broker could answer this error name to this request at all. */
export function brokerCouldAnswer(name: string, req: ProxiedRequest): boolean {
  if (req.apiKey === ApiKey.Produce && PRODUCER_STATE_ERRORS.has(name)) return requestProducerId(req) !== null;
  return true;
}

/** The name a real broker uses for this error at this request's API and version. */
export function brokerErrorName(name: string, req: ProxiedRequest): string {
  if (name !== 'PRODUCER_FENCED') return name;
  const since = FENCED_SINCE.get(req.apiKey);
  return since !== undefined && req.apiVersion < since ? 'INVALID_PRODUCER_EPOCH' : name;
}
