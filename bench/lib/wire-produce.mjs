// A deterministic Produce load for measuring the broker's own CPU: the same
// pre-encoded Produce v7 frames (one per leader node, holding one batch for
// each partition that node leads) sent on one connection per node with a
// fixed number in flight, so two brokers (or two builds) get exactly the
// same requests, bytes and pipelining, whatever the client machine does.
import net from 'node:net';

import { encodeRequest } from '../../dist/protocol/headers.js';
import { API, WireClient, brokerAddresses, buildRecordBatch } from './wire.mjs';

/**
 * Sends `requests` Produce requests to each leader node of `topic` (found by
 * Metadata on bootstrap[0]), `inflight` at a time per connection; each
 * request carries one batch of `records` x `size`-byte values per partition
 * that node leads, acks as given. Resolves { seconds, requests, bytes, errors }.
 */
export async function wireProduce(bootstrap, topic, { requests = 300, records = 100, size = 100, inflight = 8, acks = -1 } = {}) {
  const meta = await WireClient.connect(bootstrap[0]);
  const md = await meta.request(API.Metadata, 4, { topics: [{ name: topic }], allowAutoTopicCreation: false });
  meta.close();
  const byLeader = new Map();
  for (const p of md.topics[0].partitions) {
    if (!byLeader.has(p.leaderId)) byLeader.set(p.leaderId, []);
    byLeader.get(p.leaderId).push(p.partitionIndex);
  }
  const addresses = brokerAddresses(md);
  const batch = buildRecordBatch(Array.from({ length: records }, (_, i) => ({ value: Buffer.alloc(size, 97 + (i % 26)) })));
  let errors = 0;
  let bytes = 0;
  const t0 = performance.now();
  await Promise.all(
    [...byLeader].map(async ([leader, partitions]) => {
      const body = encodeRequest(API.Produce, 7, 1, 'bench-wire', {
        transactionalId: null,
        acks,
        timeoutMs: 30000,
        topicData: [{ name: topic, partitionData: partitions.map((index) => ({ index, records: batch })) }],
      });
      const frame = Buffer.alloc(4 + body.length);
      frame.writeInt32BE(body.length);
      body.copy(frame, 4);
      bytes += frame.length * requests;
      await pump(addresses.get(leader), frame, requests, inflight, () => errors++);
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, requests: requests * byLeader.size, bytes, errors };
}

/** Writes `frame` n times on one socket, at most `inflight` unanswered; checks each answer's first error code. */
function pump(address, frame, n, inflight, onError) {
  const i = address.lastIndexOf(':');
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: address.slice(0, i), port: Number(address.slice(i + 1)) });
    s.setNoDelay(true);
    let sent = 0;
    let answered = 0;
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`${address}: ${answered} of ${n} answered after 60 s`));
    }, 60000);
    const top = () => {
      while (sent < n && sent - answered < inflight) {
        s.write(frame);
        sent++;
      }
    };
    s.on('connect', top);
    s.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    s.on('data', (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      while (buf.length >= 4 && buf.length >= 4 + buf.readInt32BE(0)) {
        const size = buf.readInt32BE(0);
        // v7 response: correlation id, [responses: name, [partition: index, error code ...]]
        const nameLen = buf.readInt16BE(12);
        if (buf.readInt16BE(4 + 4 + 4 + 2 + nameLen + 4 + 4) !== 0) onError();
        buf = buf.subarray(4 + size);
        answered++;
      }
      if (answered === n) {
        clearTimeout(timer);
        s.destroy();
        resolve();
      } else top();
    });
  });
}
