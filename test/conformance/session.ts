// One side of the comparison (the real broker or kafkaesque) running one
// request sequence: every request goes over a raw socket with kafkaesque's
// own codec (src/protocol), and each compared step's decoded answer is kept
// for the comparison. A sequence's later requests use the answers of its
// earlier ones (producer ids, member ids, generations), on each side its own.
import { ApiKey, apiSchemas } from '../../src/protocol/messages/index.js';
import { errorByCode } from '../../src/protocol/errors.js';
import { WireClient } from '../support/wire-client.js';

export interface Step {
  label: string;
  api: string;
  version: number;
  answer: unknown;
}

/** Errors a broker answers while a topic, leader or coordinator is still being set up: retried in setup, never in a compared step. */
const SETTLING = new Set([
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'NOT_COORDINATOR',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_OR_FOLLOWER',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'UNKNOWN_TOPIC_ID',
]);
const SETTLE_TIMEOUT_MS = 20_000;

/** Every error_code in an answer, by name. */
export function errorsIn(answer: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'errorCode' && typeof x === 'number' && x !== 0) out.push(errorByCode(x)?.name ?? String(x));
        else walk(x);
      }
    }
  };
  walk(answer);
  return out;
}

export class Session {
  readonly steps: Step[] = [];
  private readonly clients: WireClient[] = [];
  /** The broker's node id, from Metadata (start): 1 on the real broker, 0 on kafkaesque. */
  nodeId = -1;

  constructor(
    readonly side: 'kafka' | 'kafkaesque',
    readonly bootstrap: string,
  ) {}

  async start(): Promise<void> {
    const md = await this.setup<any>(ApiKey.Metadata, 12, { topics: [], allowAutoTopicCreation: false });
    this.nodeId = md.brokers[0].nodeId;
  }

  /** A connection of the sequence's own (a second producer, a second member); closed at the end. */
  async connection(): Promise<WireClient> {
    const c = await WireClient.connect(this.bootstrap);
    this.clients.push(c);
    return c;
  }

  private async first(): Promise<WireClient> {
    return this.clients[0] ?? this.connection();
  }

  /** A compared step: sent once, its answer recorded under `label`. */
  async step<T = any>(label: string, apiKey: ApiKey, version: number, body: unknown, on?: WireClient): Promise<T> {
    const c = on ?? (await this.first());
    // Recorded when sent, so that requests left waiting (a JoinGroup held for
    // a rebalance) keep the order the sequence sent them in.
    const step: Step = { label, api: apiSchemas.get(apiKey)!.name, version, answer: undefined };
    this.steps.push(step);
    step.answer = await c.request<T>(apiKey, version, body);
    return step.answer as T;
  }

  /** Until a topic that may be being created has a serving leader, or a few seconds have passed (it may never be created). */
  async settleTopic(name: string, timeoutMs = 3000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const md = await (await this.first()).request<any>(ApiKey.Metadata, 12, { topics: [{ name }], allowAutoTopicCreation: false });
      const parts = md.topics[0]?.partitions ?? [];
      if (md.topics[0]?.errorCode === 0 && parts.length > 0 && parts.every((p: any) => p.leaderId >= 0)) {
        const partitions = parts.map((p: any) => ({ partitionIndex: p.partitionIndex, currentLeaderEpoch: -1, timestamp: -1 }));
        await this.setup(ApiKey.ListOffsets, 9, { replicaId: -1, isolationLevel: 0, topics: [{ name, partitions }] });
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** A compared answer got some other way (a raw frame). */
  record(label: string, api: string, version: number, answer: unknown): void {
    this.steps.push({ label, api, version, answer });
  }

  /** A compared step sent again while it answers one of `retry` (a transaction's markers still being written); the last answer is recorded. */
  async settled<T = any>(label: string, apiKey: ApiKey, version: number, body: unknown, retry: string[], on?: WireClient): Promise<T> {
    const answer = await this.setup<T>(apiKey, version, body, retry, on, false);
    this.steps.push({ label, api: apiSchemas.get(apiKey)!.name, version, answer });
    return answer;
  }

  /**
   * A setup request, not compared: retried while the answer holds an error of
   * a broker still settling (a new topic's leader, a coordinator loading), or
   * `alsoRetry`, so that both sides start the compared steps from the same state.
   */
  async setup<T = any>(apiKey: ApiKey, version: number, body: unknown, alsoRetry: string[] = [], on?: WireClient, settling = true): Promise<T> {
    const c = on ?? (await this.first());
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      const answer = await c.request<T>(apiKey, version, body);
      const errors = errorsIn(answer).filter((e) => (settling && SETTLING.has(e)) || alsoRetry.includes(e));
      if (errors.length === 0) return answer;
      if (Date.now() > deadline) throw new Error(`${this.side}: ${apiSchemas.get(apiKey)!.name} still answers ${errors.join(', ')} after ${SETTLE_TIMEOUT_MS} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): void {
    for (const c of this.clients) c.close();
  }
}

/**
 * Brings a newly started real broker to the state kafkaesque starts in:
 * __consumer_offsets and __transaction_state created and loaded, so that
 * FindCoordinator and InitProducerId answer at once. Kafka answers
 * COORDINATOR_NOT_AVAILABLE / COORDINATOR_LOAD_IN_PROGRESS until then.
 */
export async function warmUp(bootstrap: string): Promise<void> {
  const s = new Session('kafka', bootstrap);
  try {
    await s.setup(ApiKey.FindCoordinator, 4, { keyType: 0, coordinatorKeys: ['conformance-warm-up'] });
    await s.setup(ApiKey.FindCoordinator, 4, { keyType: 1, coordinatorKeys: ['conformance-warm-up'] });
    await s.setup(ApiKey.InitProducerId, 5, { transactionalId: null, transactionTimeoutMs: 60_000, producerId: -1, producerEpoch: -1 });
    await s.setup(ApiKey.InitProducerId, 5, { transactionalId: 'conformance-warm-up', transactionTimeoutMs: 60_000, producerId: -1, producerEpoch: -1 });
  } finally {
    s.close();
  }
}
