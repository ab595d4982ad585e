// A token bucket, as Kafka's TokenBucket stat (org.apache.kafka.common.metrics.stats)
// measures the controller mutation quota: `quota` tokens a second refill it
// up to a burst of quota × samples × window; a record takes its value out,
// and may take the bucket below zero. A negative bucket is a violation.

export class TokenBucket {
  private tokens: number | undefined;
  private lastUpdateMs = 0;

  constructor(
    readonly numSamples = 11,
    readonly windowMs = 1000,
  ) {}

  /** TokenBucket.measure: the tokens left now for this quota. */
  measure(quota: number, nowMs: number): number {
    return this.refill(quota, nowMs);
  }

  /** TokenBucket.record: takes value out (a full bucket to start with, as Kafka's first refill gives). */
  record(quota: number, value: number, nowMs: number): void {
    this.tokens = Math.min(this.burst(quota), this.refill(quota, nowMs) - value);
  }

  private burst(quota: number): number {
    return this.numSamples * (this.windowMs / 1000) * quota;
  }

  private refill(quota: number, nowMs: number): number {
    const burst = this.burst(quota);
    this.tokens = this.tokens === undefined ? burst : Math.min(burst, this.tokens + (quota * (nowMs - this.lastUpdateMs)) / 1000);
    this.lastUpdateMs = nowMs;
    return this.tokens;
  }
}

/** ControllerMutationQuotaManager.throttleTimeMs: how long until a negative bucket is back at zero. */
export const tokenBucketThrottleTimeMs = (tokens: number, quota: number) => Math.round((-tokens / quota) * 1000);
