#!/usr/bin/env node
// The least a Node.js broker can do for the `cpu` part's fixed Produce load:
// the "floor" target. It cuts frames off the socket exactly as kafkaesque's
// server does (a view when a frame sits in one read, one copy when it spans
// reads), keeps every Produce frame (a broker stores what it acknowledges, so
// the fresh memory is paid for here too) and answers it with a response
// encoded once per connection, only the correlation id patched. No decoding,
// no CRC, no log, no codec on the request path: what is left is Node's own
// socket, stream and timer work. ApiVersions and Metadata are answered (a
// client asks them a few times) so that bench/lib/wire-produce.mjs and a
// kafkajs producer find the leaders; nothing else is.
//
//   node bench/lib/floor-broker.mjs --brokers 3 --port P --topic cpu:16:1
//
// Prints one ready line, {"bootstrap":"127.0.0.1:P,..."}, like `kafkaesque
// start --json`, and exits on SIGTERM/SIGINT or after --lifetime seconds.
import net from 'node:net';
import { parseArgs } from 'node:util';

import { readHeader, writeResponseHeader } from '../../dist/protocol/headers.js';
import { apiSchemas } from '../../dist/protocol/messages/index.js';
import { Reader, Writer } from '../../dist/protocol/primitives.js';

const { values } = parseArgs({
  options: {
    brokers: { type: 'string', default: '3' },
    port: { type: 'string', default: '0' },
    topic: { type: 'string', multiple: true, default: [] },
    lifetime: { type: 'string', default: '600' },
  },
});
const brokers = Number(values.brokers);
const topics = values.topic.map((t) => {
  const [name, partitions] = t.split(':');
  return { name, partitions: Number(partitions) };
});
const PRODUCE = 0;
const METADATA = 3;
const API_VERSIONS = 18;
// What a kafkajs producer needs, at the versions kafkaesque offers.
const apiKeys = [
  { apiKey: PRODUCE, minVersion: 0, maxVersion: 9 },
  { apiKey: METADATA, minVersion: 0, maxVersion: 12 },
  { apiKey: API_VERSIONS, minVersion: 0, maxVersion: 3 },
];

function encodeResponse(apiKey, version, correlationId, body) {
  const api = apiSchemas.get(apiKey);
  const w = new Writer();
  writeResponseHeader(w, api, version, correlationId);
  api.writeResponse(w, body, version);
  const payload = w.toBuffer();
  const frame = Buffer.allocUnsafe(4 + payload.length);
  frame.writeInt32BE(payload.length);
  payload.copy(frame, 4);
  return frame;
}

function decode(frame) {
  const apiKey = frame.readInt16BE(0);
  const version = frame.readInt16BE(2);
  const api = apiSchemas.get(apiKey);
  const r = new Reader(frame);
  const header = readHeader(r, api, version);
  return { apiKey, version, correlationId: header.correlationId, body: api.readRequest(r, version) };
}

const kept = [];
const ports = [];

function serve() {
  return net.createServer((socket) => {
    socket.setNoDelay(true);
    let pending = null; // bytes of an unfinished frame
    let produceAnswer = null; // this connection's Produce response, encoded once
    const onFrame = (frame) => {
      const apiKey = frame.readInt16BE(0);
      if (apiKey === PRODUCE && produceAnswer) {
        kept.push(frame);
        const out = Buffer.from(produceAnswer);
        out.writeInt32BE(frame.readInt32BE(4), 4);
        socket.write(out);
        return;
      }
      const req = decode(frame);
      if (req.apiKey === API_VERSIONS) {
        socket.write(encodeResponse(API_VERSIONS, req.version, req.correlationId, { errorCode: 0, apiKeys, throttleTimeMs: 0 }));
      } else if (req.apiKey === METADATA) {
        socket.write(
          encodeResponse(METADATA, req.version, req.correlationId, {
            throttleTimeMs: 0,
            brokers: ports.map((port, i) => ({ nodeId: i, host: '127.0.0.1', port, rack: null })),
            clusterId: 'floor',
            controllerId: 0,
            topics: topics.map((t) => ({
              errorCode: 0,
              name: t.name,
              isInternal: false,
              partitions: Array.from({ length: t.partitions }, (_, p) => ({
                errorCode: 0,
                partitionIndex: p,
                leaderId: p % brokers,
                leaderEpoch: 0,
                replicaNodes: [p % brokers],
                isrNodes: [p % brokers],
                offlineReplicas: [],
              })),
            })),
          }),
        );
      } else if (req.apiKey === PRODUCE) {
        kept.push(frame);
        produceAnswer = encodeResponse(PRODUCE, req.version, req.correlationId, {
          responses: req.body.topicData.map((t) => ({
            name: t.name,
            partitionResponses: t.partitionData.map((pd) => ({ index: pd.index, errorCode: 0, baseOffset: 0, logAppendTimeMs: -1, logStartOffset: 0, recordErrors: [], errorMessage: null })),
          })),
          throttleTimeMs: 0,
        });
        socket.write(produceAnswer);
      } else {
        socket.destroy(); // not a broker: only what the fixed load sends
      }
    };
    socket.on('data', (chunk) => {
      let buf = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = null;
      while (buf.length >= 4 && buf.length >= 4 + buf.readInt32BE(0)) {
        const size = buf.readInt32BE(0);
        onFrame(buf.subarray(4, 4 + size));
        buf = buf.subarray(4 + size);
      }
      if (buf.length) pending = buf;
    });
    socket.on('error', () => {});
  });
}

const first = Number(values.port);
for (let i = 0; i < brokers; i++) {
  const server = serve();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(first ? first + i : 0, '127.0.0.1', resolve);
  });
  ports.push(server.address().port);
}
process.stdout.write(`${JSON.stringify({ bootstrap: ports.map((p) => `127.0.0.1:${p}`).join(',') })}\n`);
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setTimeout(stop, Number(values.lifetime) * 1000).unref();
