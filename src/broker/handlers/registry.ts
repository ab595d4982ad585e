// The handler registry is the source of truth for what this broker serves:
// ApiVersions is computed from it, and a key registered twice is a bug. A
// Kafka version profile narrows it: an API is served at the versions both
// its handler and that Kafka serve, below the profile's cap where that
// Kafka's later versions have semantics kafkaesque lacks, and advertised
// there (with the profile's lower advertised minimum where it has one, as
// 4.x's Produce).
import type { ApiHandler } from './handler.js';
import { defaultProfile, type KafkaVersionProfile } from '../kafka-version/profiles.js';

export interface ApiVersionRange {
  apiKey: number;
  minVersion: number;
  maxVersion: number;
}

export class HandlerRegistry {
  private readonly handlers = new Map<number, ApiHandler>();
  private served: Map<number, { min: number; max: number }> | null = null;

  constructor(
    handlers: readonly ApiHandler[] = [],
    readonly profile: KafkaVersionProfile = defaultProfile,
  ) {
    for (const h of handlers) this.register(h);
  }

  register(handler: ApiHandler): void {
    const key = handler.api.apiKey;
    if (this.handlers.has(key)) throw new Error(`a handler for ${handler.api.name} (key ${key}) is already registered`);
    if (handler.minVersion < handler.api.minVersion || handler.maxVersion > handler.api.maxVersion) {
      throw new Error(`${handler.api.name} handler serves versions outside the schema's ${handler.api.minVersion}-${handler.api.maxVersion}`);
    }
    this.handlers.set(key, handler);
    this.served = null;
  }

  get(apiKey: number): ApiHandler | undefined {
    return this.handlers.get(apiKey);
  }

  supports(apiKey: number, version: number): boolean {
    const r = this.servedRanges().get(apiKey);
    return !!r && version >= r.min && version <= r.max;
  }

  /** Every advertised API with its version range, by api key: what ApiVersions answers. */
  versions(): ApiVersionRange[] {
    return [...this.servedRanges()]
      .map(([apiKey, r]) => ({ apiKey, minVersion: Math.min(r.min, this.profile.advertisedMin.get(apiKey) ?? r.min), maxVersion: r.max }))
      .sort((a, b) => a.apiKey - b.apiKey);
  }

  /** Handler range ∩ the profile's range (to its cap), for each API where that is not empty. */
  private servedRanges(): Map<number, { min: number; max: number }> {
    if (this.served) return this.served;
    this.served = new Map();
    for (const [key, h] of this.handlers) {
      const kafka = this.profile.ranges.get(key);
      if (!kafka) continue;
      const min = Math.max(h.minVersion, kafka.min);
      const max = Math.min(h.maxVersion, kafka.max, this.profile.versionCaps.get(key) ?? Infinity);
      if (min <= max) this.served.set(key, { min, max });
    }
    return this.served;
  }
}
