// A minimal raw Kafka client for the scale benches (partitions, connections),
// on kafkaesque's own codecs from dist/ (npm run build): one socket, requests
// pipelined, responses matched by correlation id. Used against the mock too:
// bytes on the wire are the same for any broker.
import net from 'node:net';

import { encodeRequest, responseHeaderVersion } from '../../dist/protocol/headers.js';
import { apiSchemas } from '../../dist/protocol/messages/index.js';
import { Reader } from '../../dist/protocol/primitives.js';

export { buildRecordBatch } from '../../dist/protocol/record-batch.js';

export const API = { Produce: 0, Metadata: 3, ApiVersions: 18, CreateTopics: 19 };

export class WireClient {
  #socket;
  #pending = new Map();
  #correlation = 0;
  #buf = Buffer.alloc(0);
  #closedError = null;

  constructor(socket) {
    this.#socket = socket;
    socket.on('data', (chunk) => this.#onData(chunk));
    socket.on('error', (err) => this.#fail(err));
    socket.on('close', () => this.#fail(new Error('connection closed')));
  }

  /** Connects to "host:port"; rejects after timeoutMs. */
  static connect(address, timeoutMs = 10000) {
    const i = address.lastIndexOf(':');
    return new Promise((resolve, reject) => {
      const s = net.connect({ host: address.slice(0, i), port: Number(address.slice(i + 1)) });
      s.setNoDelay(true);
      const t = setTimeout(() => {
        s.destroy();
        reject(new Error(`connect ${address}: timed out`));
      }, timeoutMs);
      s.once('connect', () => {
        clearTimeout(t);
        s.removeAllListeners('error');
        resolve(new WireClient(s));
      });
      s.once('error', (err) => {
        clearTimeout(t);
        reject(err);
      });
    });
  }

  /** Sends one request; resolves the decoded response body (or rejects after timeoutMs). */
  request(apiKey, version, body, timeoutMs = 30000) {
    if (this.#closedError) return Promise.reject(this.#closedError);
    const correlationId = ++this.#correlation;
    const payload = encodeRequest(apiKey, version, correlationId, 'bench-wire', body);
    const size = Buffer.allocUnsafe(4);
    size.writeInt32BE(payload.length);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(correlationId);
        reject(new Error(`api ${apiKey} v${version}: no response within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(correlationId, { apiKey, version, resolve, reject, timer });
      this.#socket.write(Buffer.concat([size, payload]));
    });
  }

  close() {
    this.#socket.destroy();
  }

  #onData(chunk) {
    this.#buf = this.#buf.length ? Buffer.concat([this.#buf, chunk]) : chunk;
    while (this.#buf.length >= 4) {
      const n = this.#buf.readInt32BE(0);
      if (this.#buf.length < 4 + n) break;
      const frame = this.#buf.subarray(4, 4 + n);
      this.#buf = this.#buf.subarray(4 + n);
      const r = new Reader(frame);
      const correlationId = r.int32();
      const p = this.#pending.get(correlationId);
      if (!p) continue;
      this.#pending.delete(correlationId);
      clearTimeout(p.timer);
      try {
        const api = apiSchemas.get(p.apiKey);
        // ApiVersions always answers with a v0 response header.
        if (p.apiKey !== API.ApiVersions && responseHeaderVersion(api, p.version) >= 1) r.uvarint();
        p.resolve(api.readResponse(r, p.version));
      } catch (err) {
        p.reject(err);
      }
    }
  }

  #fail(err) {
    if (this.#closedError) return;
    this.#closedError = err;
    for (const p of this.#pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.#pending.clear();
  }
}

/** Address of each broker node from a Metadata response. */
export const brokerAddresses = (md) => new Map(md.brokers.map((b) => [b.nodeId, `${b.host}:${b.port}`]));
