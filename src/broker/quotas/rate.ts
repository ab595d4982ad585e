// A windowed rate, as Kafka's metrics measure quota usage (SampledStat and
// Rate in org.apache.kafka.common.metrics.stats): `samples` windows of
// `windowMs` each; the rate is the sum over the live windows divided by the
// time they span, counted as at least samples - 1 full windows so that a
// burst right after start is not measured over a few milliseconds. With
// Kafka's quota defaults (quota.window.num = 11, quota.window.size.seconds =
// 1) a rate is taken over at least 10 seconds.

interface Sample {
  lastWindowMs: number;
  value: number;
}

export class Rate {
  private readonly samples: Sample[] = [];
  private current = 0;

  constructor(
    readonly numSamples = 11,
    readonly windowMs = 1000,
  ) {}

  /** SampledStat.record: adds value to the current window, opening the next one when the current has run its time. */
  record(value: number, nowMs: number): void {
    let sample = this.currentSample(nowMs);
    if (nowMs - sample.lastWindowMs >= this.windowMs) sample = this.advance(nowMs);
    sample.value += value;
  }

  /** Rate.measure: units per second. */
  measure(nowMs: number): number {
    this.purgeObsolete(nowMs);
    let total = 0;
    for (const s of this.samples) total += s.value;
    return total / (this.windowSize(nowMs) / 1000);
  }

  /** Rate.windowSize: the time the live windows span, at least samples - 1 windows, at least 1 ms. */
  windowSize(nowMs: number): number {
    this.purgeObsolete(nowMs);
    let elapsed = nowMs - this.oldest(nowMs).lastWindowMs;
    const fullWindows = Math.floor(elapsed / this.windowMs);
    const minFullWindows = this.numSamples - 1;
    if (fullWindows < minFullWindows) elapsed += (minFullWindows - fullWindows) * this.windowMs;
    return Math.max(elapsed, 1);
  }

  private currentSample(nowMs: number): Sample {
    if (this.samples.length === 0) this.samples.push({ lastWindowMs: nowMs, value: 0 });
    return this.samples[this.current]!;
  }

  private advance(nowMs: number): Sample {
    this.current = (this.current + 1) % this.numSamples;
    if (this.current >= this.samples.length) {
      const s = { lastWindowMs: nowMs, value: 0 };
      this.samples.push(s);
      return s;
    }
    const s = this.samples[this.current]!;
    s.lastWindowMs = nowMs;
    s.value = 0;
    return s;
  }

  /** Windows older than samples × window are emptied (SampledStat.purgeObsoleteSamples). */
  private purgeObsolete(nowMs: number): void {
    const expireAge = this.numSamples * this.windowMs;
    for (const s of this.samples) {
      if (nowMs - s.lastWindowMs >= expireAge) {
        s.lastWindowMs = nowMs;
        s.value = 0;
      }
    }
  }

  private oldest(nowMs: number): Sample {
    if (this.samples.length === 0) this.samples.push({ lastWindowMs: nowMs, value: 0 });
    let oldest = this.samples[0]!;
    for (const s of this.samples) if (s.lastWindowMs < oldest.lastWindowMs) oldest = s;
    return oldest;
  }
}

/**
 * QuotaUtils.throttleTime: how long until the rate is back at the bound,
 * if nothing more is recorded: (rate - bound) / bound × the rate's window.
 */
export function throttleTimeMs(rate: Rate, bound: number, nowMs: number): number {
  const value = rate.measure(nowMs);
  if (value <= bound) return 0;
  return Math.round(((value - bound) / bound) * rate.windowSize(nowMs));
}
