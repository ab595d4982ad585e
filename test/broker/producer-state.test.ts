// The producer-state table, case by case as kafka-semantics.md §1 states them.
import { ProducerStateTable, type IncomingBatch } from '../../src/broker/producer-state.js';

const PID = 42;
const batch = (baseSequence: number, records = 1, producerEpoch = 0, transactional = false): IncomingBatch => ({
  producerId: PID,
  producerEpoch,
  baseSequence,
  lastOffsetDelta: records - 1,
  transactional,
});

/** Appends batches in order, as the log would, returning the table and the next offset. */
function withBatches(...batches: IncomingBatch[]) {
  const t = new ProducerStateTable();
  let offset = 0;
  for (const b of batches) {
    expect(t.check(b)).toEqual({ kind: 'append' });
    t.recordAppend(b, offset, 1000 + offset);
    offset += b.lastOffsetDelta + 1;
  }
  return { t, offset };
}

test('an unknown producer id is accepted at any sequence and epoch', () => {
  const t = new ProducerStateTable();
  expect(t.check(batch(17, 1, 3))).toEqual({ kind: 'append' });
});

test('in sequence: next batch must start right after the last one', () => {
  const { t } = withBatches(batch(0, 5), batch(5, 5));
  expect(t.check(batch(10))).toEqual({ kind: 'append' });
  expect(t.check(batch(11))).toMatchObject({ kind: 'error', error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
  expect(t.check(batch(9))).toMatchObject({ kind: 'error', error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
});

test('a retry of one of the last 5 batches is a duplicate answered with its original offsets', () => {
  const { t } = withBatches(batch(0, 2), batch(2, 2), batch(4, 2), batch(6, 2), batch(8, 2), batch(10, 2));
  // Batches at sequences 2..11 are cached (the one at 0 fell out of the window of 5).
  const dup = t.findDuplicate(batch(4, 2));
  expect(dup).toMatchObject({ firstSeq: 4, lastSeq: 5, lastOffset: 5, offsetDelta: 1 });
  expect(dup!.lastOffset - dup!.offsetDelta).toBe(4);
  // Same start but a different length is not a duplicate, and out of order.
  expect(t.findDuplicate(batch(4, 3))).toBeUndefined();
  expect(t.check(batch(4, 3))).toMatchObject({ error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
});

test('a retry older than the 5-batch window is OUT_OF_ORDER_SEQUENCE_NUMBER, not a duplicate', () => {
  const { t } = withBatches(batch(0, 2), batch(2, 2), batch(4, 2), batch(6, 2), batch(8, 2), batch(10, 2));
  expect(t.findDuplicate(batch(0, 2))).toBeUndefined();
  expect(t.check(batch(0, 2))).toMatchObject({ kind: 'error', error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
});

test('an older epoch is INVALID_PRODUCER_EPOCH, and a duplicate needs the same epoch', () => {
  const { t } = withBatches(batch(0, 1, 2));
  expect(t.check(batch(1, 1, 1))).toMatchObject({ kind: 'error', error: 'INVALID_PRODUCER_EPOCH' });
  expect(t.findDuplicate(batch(0, 1, 1))).toBeUndefined();
});

test('a bumped epoch must restart at sequence 0, and resets the batch cache', () => {
  const { t, offset } = withBatches(batch(0, 3, 0), batch(3, 3, 0));
  expect(t.check(batch(6, 1, 1))).toMatchObject({ kind: 'error', error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
  expect(t.check(batch(0, 1, 1))).toEqual({ kind: 'append' });
  t.recordAppend(batch(0, 1, 1), offset, 0);
  expect(t.get(PID)).toMatchObject({ producerEpoch: 1, batches: [{ firstSeq: 0, lastSeq: 0 }] });
  expect(t.findDuplicate(batch(3, 3, 0))).toBeUndefined();
});

test('sequences wrap from 2^31-1 to 0', () => {
  const { t } = withBatches(batch(2147483645, 3));
  expect(t.get(PID)!.batches[0]!.lastSeq).toBe(2147483647);
  expect(t.check(batch(0))).toEqual({ kind: 'append' });
  expect(t.check(batch(2147483648 % 2147483648 + 1))).toMatchObject({ error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
  // A batch crossing the wrap point has a last sequence past zero.
  const { t: t2 } = withBatches(batch(2147483646, 4));
  expect(t2.get(PID)!.batches[0]!.lastSeq).toBe(1);
  expect(t2.check(batch(2))).toEqual({ kind: 'append' });
});

test('a non-transactional batch while the producer has a transaction open here is INVALID_TXN_STATE', () => {
  const { t } = withBatches(batch(0, 1, 0, true));
  expect(t.hasOpenTransaction(PID)).toBe(true);
  expect(t.check(batch(1, 1, 0, false))).toMatchObject({ kind: 'error', error: 'INVALID_TXN_STATE' });
  expect(t.check(batch(1, 1, 0, true))).toEqual({ kind: 'append' });
});

test('markers: an ABORT is indexed, the last stable offset waits for open transactions and unreplicated markers', () => {
  const { t } = withBatches(batch(0, 3, 0, true)); // offsets 0-2, transaction open
  expect(t.firstUnstableOffset(3)).toBe(0);
  expect(t.checkMarker(PID, 0, 0)).toBe('NONE');
  t.recordMarker(PID, 0, 0, false, 3, 5000); // ABORT at offset 3
  expect(t.aborted).toEqual([{ producerId: PID, firstOffset: 0, lastOffset: 3 }]);
  expect(t.firstUnstableOffset(3)).toBe(0); // marker not yet below the high watermark
  expect(t.firstUnstableOffset(4)).toBeNull();
  expect(t.abortedBetween(0, 4)).toHaveLength(1);
  expect(t.abortedBetween(4, 10)).toHaveLength(0);
  // Sequences go on across transactions; the cache survives a same-epoch marker.
  expect(t.check(batch(3, 1, 0, true))).toEqual({ kind: 'append' });
});

test('markers with an older epoch or coordinator epoch are refused; a higher epoch raises the stored one', () => {
  const { t } = withBatches(batch(0, 1, 2, true));
  expect(t.checkMarker(PID, 1, 0)).toBe('INVALID_PRODUCER_EPOCH');
  t.recordMarker(PID, 3, 5, false, 1, 0);
  expect(t.get(PID)).toMatchObject({ producerEpoch: 3, coordinatorEpoch: 5, batches: [] });
  expect(t.checkMarker(PID, 3, 4)).toBe('TRANSACTION_COORDINATOR_FENCED');
  // The old epoch's next write is fenced.
  expect(t.check(batch(1, 1, 2, true))).toMatchObject({ error: 'INVALID_PRODUCER_EPOCH' });
});

test('producer.id.expiration.ms: only the scan forgets an idle producer id (never a lookup), and never one with an open transaction', () => {
  const t = new ProducerStateTable(() => 1000);
  t.recordAppend(batch(0, 1), 0, 5000);
  // Lookups do not expire: the sequence is still checked however old the last batch is.
  expect(t.check(batch(7))).toMatchObject({ error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
  expect(t.removeExpiredProducers(5999)).toEqual([]);
  expect(t.removeExpiredProducers(6000)).toEqual([PID]);
  expect(t.check(batch(7))).toEqual({ kind: 'append' });
  // An open transaction keeps its producer however idle.
  t.recordAppend(batch(0, 1, 0, true), 1, 0);
  expect(t.removeExpiredProducers(1_000_000)).toEqual([]);
  expect(t.get(PID)).toBeDefined();
  // Forgetting on purpose (the chaos layer's expire-producer) skips the wait but not the transaction rule.
  expect(t.expire(PID)).toBe(false);
  t.recordMarker(PID, 0, 0, true, 2, 0);
  expect(t.expire(PID)).toBe(true);
  expect(t.findDuplicate(batch(0, 1))).toBeUndefined();
});
