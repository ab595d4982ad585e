// Requests and a controller for the chaos unit tests, without sockets.
import { encodeRequest } from '../../src/protocol/headers.js';
import { ProxiedRequest } from '../../src/chaos/request.js';
import { ChaosEngine } from '../../src/chaos/controller.js';
import { silentLogger } from '../../src/logger.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import { modelCluster } from '../support/cluster.js';

let correlation = 1;

/** A request as the proxy would see it arrive on `nodeId`. */
export function proxied(apiKey: number, version: number, body: unknown, opts: { nodeId?: number; clientId?: string | null; connectionId?: number } = {}): ProxiedRequest {
  const frame = encodeRequest(apiKey, version, correlation++, opts.clientId === undefined ? 'unit' : opts.clientId, body);
  return new ProxiedRequest(frame, frame.readInt16BE(0), frame.readInt16BE(2), frame.readInt32BE(4), opts.nodeId ?? 0, opts.connectionId ?? 1);
}

export const produceBody = (topic = 't', partition = 0, acks = -1, transactionalId: string | null = null) => ({
  transactionalId,
  acks,
  timeoutMs: 1000,
  topicData: [{ name: topic, partitionData: [{ index: partition, records: buildRecordBatch([{ value: Buffer.from('x') }]) }] }],
});

/** A controller over a model cluster on a manual clock. */
export function engine(seed = 42, opts: { brokers?: number } = {}) {
  const { cluster, clock } = modelCluster({ brokers: opts.brokers ?? 3 });
  const chaos = new ChaosEngine({ cluster, seed, log: silentLogger });
  return { chaos, cluster, clock };
}
