// The audit over a real cluster model with crafted logs: each anomaly kind,
// the acknowledged rule (a record whose Produce answer a fault lost is no
// lost write), transactions, the precededBy rule and input errors. The
// end-to-end tests with kafkajs through the proxy are in delivery.test.ts.
import { appendRecords } from '../../src/broker/append.js';
import type { Cluster } from '../../src/broker/cluster.js';
import { auditDelivery, AuditInputError, type AuditInput, type AuditReport } from '../../src/audit/index.js';
import { attachProduceJournal } from '../../src/audit/produce-journal.js';
import { buildControlBatch, buildRecordBatch, type RecordInput } from '../../src/protocol/record-batch.js';
import { FakeChaos } from '../support/fake-chaos.js';
import { modelCluster } from '../support/cluster.js';

let cluster: Cluster;
let chaos: FakeChaos;
let correlation = 100;

beforeEach(() => {
  ({ cluster } = modelCluster({ brokers: 3 }));
  chaos = new FakeChaos();
  attachProduceJournal(cluster, chaos);
  for (const name of ['orders', 'other']) expect(cluster.createTopic(name, { numPartitions: 2, replicationFactor: 3 }).ok).toBe(true);
});

/** Appends one batch of records keyed by id, as a Produce from `client` with correlation id `corr`. */
function send(ids: string[], o: { topic?: string; partition?: number; client?: string; corr?: number; headers?: (id: string) => RecordInput['headers']; producerId?: number; sequence?: number } = {}) {
  const t = cluster.topic(o.topic ?? 'orders')!;
  const p = t.partitions[o.partition ?? 0]!;
  const records = ids.map((id) => ({ key: id, value: `value of ${id}`, ...(o.headers ? { headers: o.headers(id) } : {}) }));
  const idempotent = o.producerId === undefined ? {} : { producerId: o.producerId, baseSequence: o.sequence ?? 0 };
  const r = appendRecords(cluster, t, p, { records: buildRecordBatch(records, idempotent), produceVersion: 9, acks: -1, clientId: o.client ?? 'billing-1', correlationId: o.corr ?? correlation++ });
  expect(r.error).toBe('NONE');
  return r.baseOffset;
}

/** The answer to a Produce with this correlation id is lost (what the proxy's drop-response event says). */
function dropAnswer(corr: number, o: { client?: string; topic?: string; partition?: number } = {}) {
  return chaos.emit({ kind: 'fault', ruleId: 'lost-ack', action: 'drop-response', api: 'Produce', clientId: o.client ?? 'billing-1', correlationId: corr, topic: o.topic ?? 'orders', partition: o.partition ?? 0, connectionId: 1, nodeId: 0 });
}

/** A transaction of producer `pid` in orders-0, written straight into the log, ended by a marker (or left open). */
function transaction(pid: number, ids: string[], end: 'COMMIT' | 'ABORT' | null) {
  const p = cluster.topic('orders')!.partitions[0]!;
  const base = p.logEndOffset;
  const bytes = buildRecordBatch(ids.map((id) => ({ key: id, value: id })), { producerId: pid, transactional: true, baseOffset: base });
  p.log.append({ baseOffset: base, lastOffset: base + ids.length - 1, maxTimestamp: 0, leaderEpoch: 0, bytes });
  if (end) {
    const at = p.logEndOffset;
    p.log.append({ baseOffset: at, lastOffset: at, maxTimestamp: 0, leaderEpoch: 0, bytes: buildControlBatch({ producerId: pid, producerEpoch: 0, type: end, coordinatorEpoch: 0, timestamp: 0, baseOffset: at }) });
  }
}

const audit = (input: AuditInput) => auditDelivery({ cluster, chaos }, input);
const kinds = (r: AuditReport) => r.anomalies.map((a) => `${a.kind}${a.in ? `(${a.in})` : ''} ${a.id ?? '-'} ${a.topic}-${a.partition} [${a.offsets.join(',')}]`);
const at = (partition: number, offset: number, consumer?: string) => ({ topic: 'orders', partition, offset, ...(consumer ? { consumer } : {}) });

test('everything processed once, in order: ok, nothing to report', () => {
  send(['a', 'b']);
  send(['c'], { partition: 1 });
  const r = audit({ topics: ['orders'], processed: ['a', 'b', 'c'] });
  expect(r).toMatchObject({ ok: true, anomalies: [], unmatched: [], topics: ['orders'] });
  expect(r.counts).toMatchObject({ records: 3, processed: 3, unacknowledged: 0, duplicate: 0, 'lost-write': 0 });
});

describe('duplicate', () => {
  test('a retried Produce whose first answer was lost: the id is stored twice, after the drop-response fault', () => {
    const event = dropAnswer(7);
    send(['a', 'b'], { corr: 7 }); // stored; the producer never hears of it
    send(['a', 'b'], { corr: 8 }); // its retry
    send(['c']);
    const r = audit({ topics: ['orders'], processed: ['a', 'b', 'c'] });
    expect(kinds(r)).toEqual(['duplicate(log) a orders-0 [0,2]', 'duplicate(log) b orders-0 [1,3]']);
    expect(r.counts.unacknowledged).toBe(2);
    expect(r.anomalies[0]!.precededBy).toEqual([event]);
    expect(r.anomalies[0]!.message).toBe(
      "record 'a' is stored twice (orders-0@0, orders-0@2), after the drop-response fault fired on Produce to orders-0 from client billing-1 (rule lost-ack, event 1)",
    );
  });

  test('processed twice: named by offset and consumer, with the faults before it', () => {
    send(['a', 'b']);
    const rewind = chaos.emit({ kind: 'fault', ruleId: 'r', action: 'rewind', api: 'OffsetCommit', clientId: 'c1', topic: 'orders', partition: 0 });
    chaos.emit({ kind: 'fault', ruleId: 'x', action: 'delay', api: 'Fetch', clientId: 'c9', topic: 'other', partition: 0 }); // another topic: not it
    const r = audit({ processed: [at(0, 0, 'c1'), at(0, 1, 'c1'), at(0, 0, 'c1')] });
    expect(r.topics).toEqual(['orders']);
    const dup = r.anomalies.find((a) => a.kind === 'duplicate')!;
    expect(dup).toMatchObject({ in: 'processing', id: 'a', consumer: 'c1', offsets: [0], precededBy: [rewind] });
    expect(dup.message).toBe(
      "record 'a' of orders-0 (offset 0) was processed twice by c1 (items 0, 2), after the rewind fault fired on OffsetCommit to orders-0 from client c1 (rule r, event 1)",
    );
    expect(kinds(r)).toEqual(['duplicate(processing) a orders-0 [0]', 'non-monotonic-poll a orders-0 [0,1]']);
  });

  test('the same id in two partitions is one id stored twice', () => {
    send(['a']);
    send(['a'], { partition: 1 });
    expect(kinds(audit({ processed: ['a'] }))).toEqual(['duplicate(log) a orders-1 [0]']);
  });
});

describe('lost write and unseen', () => {
  test('never processed though a later offset was: lost write; nothing after it processed: unseen', () => {
    send(['a', 'b', 'c', 'd']);
    const r = audit({ topics: ['orders'], processed: ['a', 'c'] });
    expect(kinds(r)).toEqual(['lost-write b orders-0 [1]', 'unseen d orders-0 [3]']);
    expect(r.anomalies[0]!.message).toBe("record 'b' of orders-0 (offset 1) was acknowledged but never processed, though offset 2 of that partition was, with no fault before it");
    expect(r.ok).toBe(false);
  });

  test('a record whose Produce answer was lost was never acknowledged: not a lost write when unprocessed', () => {
    dropAnswer(9);
    send(['x'], { corr: 9 });
    send(['y']);
    const r = audit({ topics: ['orders'], processed: ['y'] });
    expect(r).toMatchObject({ ok: true, counts: { unacknowledged: 1, records: 2 } });
  });

  test("an idempotent retry answered with the stored offsets acknowledges the batch, unless that answer is lost too", () => {
    dropAnswer(51);
    send(['x'], { corr: 51, producerId: 900 });
    expect(send(['x'], { corr: 52, producerId: 900 })).toBe(0); // the broker's dedup: same offsets, nothing appended
    expect(audit({ topics: ['orders'], processed: [] })).toMatchObject({ counts: { records: 1, unacknowledged: 0, unseen: 1 } });
    dropAnswer(53);
    send(['y'], { corr: 53, producerId: 900, sequence: 1 });
    dropAnswer(54);
    send(['y'], { corr: 54, producerId: 900, sequence: 1 });
    expect(audit({ topics: ['orders'], processed: ['x'] })).toMatchObject({ ok: true, counts: { records: 2, unacknowledged: 1 } });
  });

  test('the lost answer is matched by client and correlation id: another client\'s request is acknowledged', () => {
    dropAnswer(11, { client: 'someone-else' });
    send(['x'], { corr: 11 });
    send(['y']);
    expect(kinds(audit({ topics: ['orders'], processed: ['y'] }))).toEqual(['lost-write x orders-0 [0]']);
  });
});

describe('lost write, from what the clients acknowledged', () => {
  test('an acknowledged id the log never stored is a lost write, with the faults on its partition before it', () => {
    send(['a', 'b']);
    chaos.emit({ kind: 'leader-changed', nodeId: 0, topic: 'orders', partition: 1, detail: { leader: 0 } });
    const r = audit({ topics: ['orders'], processed: ['a', 'b'], acknowledged: ['a', { id: 'b', producer: 'billing-1' }, { id: 'c', topic: 'orders', partition: 1, producer: 'billing-1' }] });
    expect(kinds(r)).toEqual(['lost-write c orders-1 []']);
    expect(r.anomalies[0]!.message).toBe("record 'c' of orders-1 was acknowledged to producer billing-1 but is stored nowhere in orders, after the leader of orders-1 moved to node 0 (event 1)");
    expect(r).toMatchObject({ ok: false, counts: { 'lost-write': 1 } });
  });

  test("acknowledged at an offset that holds another id (the client took another batch's answer for its own)", () => {
    send(['a-0', 'a-1']);
    const r = audit({ topics: ['orders'], processed: ['a-0', 'a-1'], acknowledged: [{ id: 'b-0', topic: 'orders', partition: 0, offset: 0 }] });
    expect(kinds(r)).toEqual(['lost-write b-0 orders-0 [0]']);
    expect(r.anomalies[0]!.message).toBe("record 'b-0' was acknowledged to the producer at orders-0 offset 0, which holds 'a-0', but is stored nowhere in orders, with no fault before it");
  });

  test('an id without its partition concerns every audited partition, and the anomaly names none (-1); an aborted copy is no copy', () => {
    transaction(901, ['t'], 'ABORT');
    chaos.emit({ kind: 'leader-changed', nodeId: 1, topic: 'orders', partition: 1, detail: { leader: 1 } });
    const r = audit({ topics: ['orders'], processed: [], acknowledged: ['t', 'gone'] });
    expect(kinds(r)).toEqual(['lost-write t orders--1 []', 'lost-write gone orders--1 []']);
    expect(r.anomalies[1]!.precededBy.map((e) => e.kind)).toEqual(['leader-changed']);
  });
});

describe('transactions', () => {
  test('a record of an aborted transaction processed is an aborted read; its unprocessed siblings are not lost', () => {
    transaction(41, ['t1', 't2'], 'ABORT');
    transaction(42, ['t3'], 'COMMIT');
    const r = audit({ topics: ['orders'], processed: ['t1', 't3'] });
    expect(kinds(r)).toEqual(['aborted-read t1 orders-0 [0]']);
    expect(r.counts.aborted).toBe(2);
    expect(r.anomalies[0]!.message).toMatch(/^record 't1' of orders-0 \(offset 0\) of an aborted transaction was processed \(item 0\)/);
  });

  test('an aborted copy and a committed copy of one id: no duplicate, and processing the id reads the committed one', () => {
    transaction(41, ['t1'], 'ABORT');
    transaction(41, ['t1'], 'COMMIT');
    expect(audit({ topics: ['orders'], processed: ['t1'] })).toMatchObject({ ok: true });
  });

  test('records of an open transaction are neither lost nor unseen', () => {
    transaction(43, ['open'], null);
    expect(audit({ topics: ['orders'], processed: [] })).toMatchObject({ ok: true });
  });
});

describe('poll skip and non-monotonic poll (items that name their offsets)', () => {
  test('a consumer that jumps over stored offsets skips them', () => {
    send(['a', 'b', 'c', 'd', 'e']);
    const r = audit({ processed: [at(0, 0, 'c1'), at(0, 1, 'c1'), at(0, 4, 'c1')] });
    expect(kinds(r)).toEqual(['lost-write c orders-0 [2]', 'lost-write d orders-0 [3]', 'poll-skip e orders-0 [2,3]']);
    expect(r.anomalies[2]!.message).toMatch(/^c1 skipped 2 offsets 2, 3 of orders-0, going from offset 1 to 4 \(item 2\)/);
  });

  test('offsets of aborted transactions and markers are no skip; poll checks run per consumer and partition', () => {
    send(['a']);
    transaction(44, ['x', 'y'], 'ABORT'); // offsets 1, 2 and the marker at 3
    send(['b']); // 4
    send(['p'], { partition: 1 });
    const r = audit({ processed: [at(0, 0, 'c1'), at(1, 0, 'c2'), at(0, 4, 'c1'), at(0, 0, 'c2')] });
    expect(r).toMatchObject({ ok: false });
    expect(kinds(r)).toEqual(['duplicate(processing) a orders-0 [0]']); // c2's first record of orders-0 starts its own position
  });

  test('going back is a non-monotonic poll', () => {
    send(['a', 'b', 'c']);
    const r = audit({ processed: [at(0, 0), at(0, 2), at(0, 1)] });
    expect(kinds(r)).toEqual(['poll-skip c orders-0 [1]', 'non-monotonic-poll b orders-0 [1,2]']);
    expect(r.anomalies[1]!.message).toMatch(/^the consumer went back in orders-0: offset 1 was processed after offset 2 \(item 2\)/);
  });
});

describe('non-monotonic send', () => {
  test('from the send order: a later id stored before an earlier one', () => {
    send(['b']);
    send(['a']);
    const r = audit({ processed: ['a', 'b'], sent: ['a', 'b'], topics: ['orders'] });
    expect(kinds(r)).toEqual(['non-monotonic-send b orders-0 [0,1]']);
    expect(r.anomalies[0]!.message).toMatch(/^the producer sent 'b' after 'a', but orders-0 stores it first \(offset 0 < 1\)/);
  });

  test("from the journal: after an unclean election cut the log, the client's next send landed below its earlier one", () => {
    const { cluster: lagging, clock } = modelCluster({ brokers: 2, replicationLagMs: 1000 });
    cluster = lagging;
    chaos = new FakeChaos();
    attachProduceJournal(cluster, chaos);
    cluster.createTopic('orders', { numPartitions: 1, replicationFactor: 2 });
    send(['a', 'b']); // on the leader only: the follower is a second behind
    const cut = cluster.electLeader('orders', 0, { nodeId: 1, unclean: true });
    expect(cut).toMatchObject({ ok: true, value: { truncatedFrom: 0 } });
    chaos.emit({ kind: 'leader-changed', topic: 'orders', partition: 0, detail: { leader: 1, unclean: true } });
    send(['c']);
    clock.advance(2000);
    const r = audit({ processed: ['c'] });
    expect(kinds(r)).toEqual(['non-monotonic-send c orders-0 [0,1]']);
    expect(r.anomalies[0]!.message).toMatch(/^client billing-1's send to orders-0 landed at offset 0, at or below its earlier send at offset 1, which the log lost, after the leader of orders-0 moved to node 1 \(unclean election\)/);
  });
});

test('the journal merges a quiet run of one client, and splits it where an unclean election cuts it', () => {
  const { cluster: lagging, clock } = modelCluster({ brokers: 2, replicationLagMs: 1000 });
  cluster = lagging;
  chaos = new FakeChaos();
  const journal = attachProduceJournal(cluster, chaos);
  cluster.createTopic('orders', { numPartitions: 1, replicationFactor: 2 });
  send(['a']);
  clock.advance(2000); // the follower has offset 0
  send(['b']); // offset 1, on the leader only
  const id = cluster.topic('orders')!.topicId;
  expect(journal.batches(id, 0).map((e) => [e.baseOffset, e.lastOffset])).toEqual([[0, 1]]);
  expect(cluster.electLeader('orders', 0, { nodeId: 1, unclean: true })).toMatchObject({ value: { truncatedFrom: 1 } });
  expect(journal.batches(id, 0).map((e) => [e.baseOffset, e.lastOffset, !!e.truncated])).toEqual([[0, 0, false], [1, 1, true]]);
  send(['c']);
  const r = audit({ processed: ['a', 'c'] });
  expect(kinds(r)).toEqual(['non-monotonic-send c orders-0 [1]']);
  expect(r.anomalies[0]!.message).toMatch(/landed at offset 1, at or below its earlier send at offset 1, which the log lost/);
});

describe('ids and input', () => {
  test('idFrom a header, or a function of the record', () => {
    send(['a', 'b'], { headers: (id) => [{ key: 'order-id', value: `order-${id}` }] });
    expect(audit({ idFrom: { header: 'order-id' }, processed: ['order-a', 'order-b'], topics: ['orders'] })).toMatchObject({ ok: true });
    const r = audit({ idFrom: (rec) => rec.value?.replace('value of ', 'v:'), processed: ['v:a'], topics: ['orders'] });
    expect(kinds(r)).toEqual(['unseen v:b orders-0 [1]']);
  });

  test('processed items that match nothing are listed with the reason, and the report is not ok', () => {
    send(['a']);
    const r = audit({ topics: ['orders'], processed: ['a', 'zzz', at(0, 5), { topic: 'other', partition: 0, offset: 0 }] });
    expect(r.ok).toBe(false);
    expect(r.unmatched.map((u) => [u.index, u.reason])).toEqual([
      [1, "id 'zzz' is not stored in the audited topics (orders)"],
      [2, 'no data record at orders-0 offset 5'],
      [3, 'other-0 is not an audited partition (topics: orders)'],
    ]);
  });

  test('bad input is refused with the field and why', () => {
    const refused = (input: unknown) => {
      try {
        audit(input as AuditInput);
      } catch (err) {
        expect(err).toBeInstanceOf(AuditInputError);
        return `${(err as AuditInputError).field}: ${(err as AuditInputError).reason}`;
      }
      throw new Error('accepted');
    };
    expect(refused({ processed: 'a' })).toBe('processed: expected the list of processed ids or records, in processing order');
    expect(refused({ processed: ['a', { topic: 'orders', partition: 0, offset: -1 }] })).toBe('processed[1].offset: expected a whole number >= 0');
    expect(refused({ processed: [{ topic: 'orders', partition: 0, offset: 1, key: 'x' }] })).toMatch(/^processed\[0\]\.key: unknown field/);
    expect(refused({ processed: [], idFrom: { header: '' } })).toBe('idFrom.header: expected a header name');
    expect(refused({ processed: [], idFrom: 'value' })).toMatch(/^idFrom: expected 'key', \{ header: name \} or a function/);
    expect(refused({ processed: [], topics: ['nope'] })).toBe("topics[0]: no topic 'nope'");
    expect(refused({ processed: [], sent: [{ id: 1 }] })).toBe('sent[0].id: expected a string');
    expect(refused({ processed: [], acknowledged: 'a' })).toBe('acknowledged: expected the list of ids the producers were told were written');
    expect(refused({ processed: [], acknowledged: [{ id: 'a', offset: 3 }] })).toBe('acknowledged[0].offset: needs topic and partition');
    expect(refused({ processed: [], acknowledged: [{ id: 'a', topic: 'orders', partition: 0, key: 'a' }] })).toMatch(/^acknowledged\[0\]\.key: unknown field/);
  });

  test('without topics or named records, every non-internal topic is audited', () => {
    send(['a']);
    send(['z'], { topic: 'other' });
    expect(kinds(audit({ processed: ['a'] }))).toEqual(['unseen z other-0 [0]']);
  });
});

test('the journal forgets a deleted topic: a re-created one starts with no unacknowledged batch', () => {
  const journal = attachProduceJournal(cluster, chaos); // the one beforeEach attached
  dropAnswer(31);
  send(['x'], { corr: 31 });
  const oldId = cluster.topic('orders')!.topicId;
  expect(journal.batches(oldId, 0)).toHaveLength(1);
  expect(cluster.deleteTopic('orders').ok).toBe(true);
  expect(journal.batches(oldId, 0)).toEqual([]);
  cluster.createTopic('orders', { numPartitions: 1, replicationFactor: 3 });
  send(['x'], { corr: 32 });
  expect(kinds(audit({ topics: ['orders'], processed: [] }))).toEqual(['unseen x orders-0 [0]']);
});

describe('precededBy', () => {
  test('a log duplicate counts only the events before its later copy was appended', () => {
    dropAnswer(21);
    send(['a'], { corr: 21 });
    send(['a']);
    chaos.emit({ kind: 'fault', ruleId: 'late', action: 'drop-response', api: 'Produce', clientId: 'billing-1', correlationId: 99, topic: 'orders', partition: 0 });
    const dup = audit({ topics: ['orders'], processed: ['a'] }).anomalies[0]!;
    expect(dup.precededBy.map((e) => e.ruleId)).toEqual(['lost-ack']);
  });

  test("node stops concern everything; connection faults naming no topic concern the records' clients", () => {
    const stop = chaos.emit({ kind: 'node-stopped', nodeId: 2 });
    const close = chaos.emit({ kind: 'fault', ruleId: 'cut', action: 'close', api: 'Metadata', clientId: 'billing-1' });
    chaos.emit({ kind: 'fault', ruleId: 'cut2', action: 'close', api: 'Metadata', clientId: 'reporting' });
    const join = chaos.emit({ kind: 'fault', ruleId: 'kick', action: 'error', api: 'Heartbeat', clientId: 'c1' });
    send(['a', 'b']);
    const r = audit({ topics: ['orders'], processed: ['b'] });
    expect(r.anomalies[0]).toMatchObject({ kind: 'lost-write', id: 'a', precededBy: [stop, close, join] });
  });
});
