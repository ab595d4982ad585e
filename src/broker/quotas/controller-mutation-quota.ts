// The controller mutation quota (controller_mutation_rate, KIP-599), as
// Kafka's ControllerMutationQuotaManager enforces it: partitions created,
// added or deleted are taken out of a token bucket per (user, client-id)
// entity, picked as for the other client quotas. CreateTopics v6+,
// CreatePartitions v3+ and DeleteTopics v5+ get a strict quota
// (StrictControllerMutationQuota): once the bucket is below zero, each
// further topic is refused with THROTTLING_QUOTA_EXCEEDED, while a topic
// that finds it at zero or above passes, however many partitions it takes.
// Older versions get a permissive one (PermissiveControllerMutationQuota):
// everything passes and the request is throttled after the fact.
import type { Clock } from '../clock.js';
import type { ClientQuotaManager } from './client-quota-manager.js';
import { TokenBucket, tokenBucketThrottleTimeMs } from './token-bucket.js';

/** One request's view of its quota (ControllerMutationQuota): lives as long as the request. */
export interface ControllerMutationQuota {
  /** Takes `permits` (partitions) out; false when a strict quota refuses them (THROTTLING_QUOTA_EXCEEDED). */
  record(permits: number): boolean;
  /** The throttle time left since the last violation (AbstractControllerMutationQuota.throttleTime). */
  throttleTimeMs(): number;
}

/** UnboundedControllerMutationQuota: no entity sets controller_mutation_rate. */
const UNBOUNDED: ControllerMutationQuota = { record: () => true, throttleTimeMs: () => 0 };

export class ControllerMutationQuotaManager {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    /** Resolves entities and bounds for controller_mutation_rate. */
    private readonly entities: ClientQuotaManager,
    private readonly clock: Clock,
  ) {}

  /** newQuotaFor: strict from strictSinceVersion on, permissive below. */
  newQuotaFor(user: string, clientId: string, apiVersion: number, strictSinceVersion: number): ControllerMutationQuota {
    if (!this.entities.enabled) return UNBOUNDED;
    const strict = apiVersion >= strictSinceVersion;
    const { clock } = this;
    let lastThrottleTimeMs = 0;
    let lastRecordedTimeMs = 0;
    const violated = (tokens: number, quota: number, now: number) => {
      lastThrottleTimeMs = tokenBucketThrottleTimeMs(tokens, quota);
      lastRecordedTimeMs = now;
    };
    return {
      record: (permits) => {
        const { id, bound } = this.entities.quotaFor(user, clientId);
        if (bound === undefined) return true;
        const bucket = this.bucketFor(id);
        const now = clock.now();
        if (strict) {
          // checkQuotas before recording: a bucket already below zero refuses.
          const tokens = bucket.measure(bound, now);
          if (tokens < 0) {
            violated(tokens, bound, now);
            return false;
          }
          bucket.record(bound, permits, now);
          return true;
        }
        bucket.record(bound, permits, now);
        const tokens = bucket.measure(bound, now);
        if (tokens < 0) violated(tokens, bound, now);
        return true;
      },
      throttleTimeMs: () => Math.max(0, lastThrottleTimeMs - (clock.now() - lastRecordedTimeMs)),
    };
  }

  private bucketFor(id: string): TokenBucket {
    let bucket = this.buckets.get(id);
    if (!bucket) this.buckets.set(id, (bucket = new TokenBucket()));
    return bucket;
  }
}
