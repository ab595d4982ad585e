// Who a request comes from, for triggers that count per party (`per`), and
// how far each party has got in its life (`stage`). Parties are named by
// what the request carries: its group, client id, producer id (the batches'
// of a Produce, the body's of the transactional APIs), transactional id,
// connection or topic. A request that names no party of the kind is not
// counted by such a trigger. Stages come from requests alone, so they work
// in upstream mode too: a party is `stable` once it has sent a SyncGroup (the
// generation it joined is complete when that is answered), `committed` once
// it has sent an OffsetCommit or TxnOffsetCommit, and has `fetched` n
// records once its Fetch offsets have moved n past the first it asked for.
import { ApiKey } from '../protocol/messages/api-key.js';
import { readBatchHeader } from '../protocol/record-batch.js';
import type { ProxiedRequest } from './request.js';

export const PARTY_KINDS = ['group', 'clientId', 'producerId', 'transactionalId', 'connection', 'topic'] as const;
export type PartyKind = (typeof PARTY_KINDS)[number];

type AnyBody = Record<string, any>;

/** The producer id a request carries; null for a non-idempotent Produce (-1) or an API that carries none. */
export function requestProducerId(req: ProxiedRequest): number | null {
  const b = req.body() as AnyBody | undefined;
  if (!b) return null;
  if (req.apiKey === ApiKey.Produce) {
    for (const t of b.topicData ?? []) {
      for (const p of t.partitionData ?? []) {
        const records = p.records as Buffer | null | undefined;
        if (records && records.length >= 61) {
          const id = readBatchHeader(records).producerId;
          return id >= 0 ? id : null;
        }
      }
    }
    return null;
  }
  if (req.apiKey === ApiKey.AddPartitionsToTxn) {
    const id = b.v3AndBelowProducerId ?? b.transactions?.[0]?.producerId;
    return typeof id === 'number' && id >= 0 ? id : null;
  }
  const id = b.producerId;
  return (req.apiKey === ApiKey.EndTxn || req.apiKey === ApiKey.AddOffsetsToTxn || req.apiKey === ApiKey.TxnOffsetCommit) && typeof id === 'number' && id >= 0 ? id : null;
}

/** The party of that kind the request comes from (its first, when it names several), or null. */
export function partyOf(kind: PartyKind, req: ProxiedRequest): string | null {
  switch (kind) {
    case 'group':
      return req.scope().groupIds[0] ?? null;
    case 'clientId':
      return req.clientId;
    case 'producerId': {
      const id = requestProducerId(req);
      return id === null ? null : String(id);
    }
    case 'transactionalId':
      return req.scope().transactionalIds[0] ?? null;
    case 'connection':
      return String(req.connectionId);
    case 'topic':
      return req.scope().topics[0]?.topic ?? null;
  }
}

interface Progress {
  stable: boolean;
  committed: boolean;
  /** Per topic-partition: the first fetch offset asked for, and the latest. */
  fetch: Map<string, { first: number; last: number }>;
}

/** What each party has done so far, seen from the requests that went through the proxy. */
export class LifeStages {
  private readonly progress = new Map<string, Progress>();

  private of(kind: PartyKind, party: string): Progress {
    const key = `${kind}:${party}`;
    let p = this.progress.get(key);
    if (!p) this.progress.set(key, (p = { stable: false, committed: false, fetch: new Map() }));
    return p;
  }

  /** Records what this request says about the parties it names (after the rules have looked at it). */
  observe(req: ProxiedRequest): void {
    const key = req.apiKey;
    if (key !== ApiKey.SyncGroup && key !== ApiKey.OffsetCommit && key !== ApiKey.TxnOffsetCommit && key !== ApiKey.Fetch) return;
    for (const kind of ['group', 'clientId', 'connection'] as const) {
      const party = partyOf(kind, req);
      if (party === null) continue;
      const p = this.of(kind, party);
      if (key === ApiKey.SyncGroup) p.stable = true;
      else if (key === ApiKey.Fetch) this.fetched(p, req);
      else p.committed = true;
    }
  }

  private fetched(p: Progress, req: ProxiedRequest): void {
    const b = req.body() as AnyBody | undefined;
    for (const t of b?.topics ?? []) {
      for (const part of t.partitions ?? []) {
        const tp = `${t.topic || t.topicId}-${part.partition}`;
        const seen = p.fetch.get(tp);
        if (!seen) p.fetch.set(tp, { first: part.fetchOffset, last: part.fetchOffset });
        else seen.last = Math.max(seen.last, part.fetchOffset);
      }
    }
  }

  /** Whether the party has reached the stage. */
  reached(stage: LifeStage, kind: PartyKind, party: string): boolean {
    const p = this.progress.get(`${kind}:${party}`);
    if (!p) return false;
    if (stage === 'stable') return p.stable;
    if (stage === 'committed') return p.committed;
    let n = 0;
    for (const f of p.fetch.values()) n += f.last - f.first;
    return n >= stage.fetched;
  }
}

export type LifeStage = 'stable' | 'committed' | { fetched: number };
