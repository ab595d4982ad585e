// Client quota enforcement for one quota type (producer_byte_rate for
// Produce, consumer_byte_rate for Fetch), as Kafka's ClientQuotaManager
// with its DefaultQuotaCallback does: a connection's (user principal,
// client id) picks the most specific entity that sets a quota of this type
// (user + client-id, user + default client-id, user, default user +
// client-id, default user + default client-id, default user, client-id,
// default client-id), usage is recorded into one rate per metric tags, and a
// usage above the bound answers the time until the rate is back at it. The
// caller answers with that throttle time and mutes the connection for as
// long (KIP-219). Nothing is recorded while no entity sets this quota type.
import type { Clock } from '../clock.js';
import { ClientQuotaStore, quotaEntity } from './client-quota-store.js';
import { Rate, throttleTimeMs } from './rate.js';
import { ControllerMutationQuotaManager } from './controller-mutation-quota.js';

/** quota.window.num and quota.window.size.seconds, Kafka's defaults. */
const NUM_QUOTA_SAMPLES = 11;
const QUOTA_WINDOW_MS = 1000;

/** KafkaPrincipal.ANONYMOUS: the user of a connection that did not authenticate. */
export const ANONYMOUS = 'ANONYMOUS';

export class ClientQuotaManager {
  private readonly rates = new Map<string, Rate>();

  constructor(
    private readonly store: ClientQuotaStore,
    private readonly clock: Clock,
    /** The quota key this manager enforces. */
    readonly key: string,
  ) {}

  get enabled(): boolean {
    return this.store.anySets(this.key);
  }

  /** Records usage; the throttle time in ms (0 when within quota or no quota applies). */
  recordAndGetThrottleTimeMs(user: string, clientId: string, value: number): number {
    if (!this.enabled) return 0;
    const now = this.clock.now();
    const tags = this.metricTags(user, clientId);
    const rate = this.rateFor(tags);
    rate.record(value, now);
    const bound = this.quotaLimit(tags);
    return bound === undefined ? 0 : throttleTimeMs(rate, bound, now);
  }

  /** A throttled fetch answers nothing, so what was recorded for it is taken back (unrecordQuotaSensor). */
  unrecord(user: string, clientId: string, value: number): void {
    if (!this.enabled) return;
    this.rateFor(this.metricTags(user, clientId)).record(-value, this.clock.now());
  }

  /** getMaxValueInQuotaWindow: the most one request may take without being throttled for sure; Infinity without a quota. */
  maxValueInQuotaWindow(user: string, clientId: string): number {
    if (!this.enabled) return Infinity;
    const bound = this.quotaLimit(this.metricTags(user, clientId));
    return bound === undefined ? Infinity : bound * (NUM_QUOTA_SAMPLES - 1) * (QUOTA_WINDOW_MS / 1000);
  }

  /** Who the usage is counted under (one id per metric tags) and the bound that applies there (undefined for none). */
  quotaFor(user: string, clientId: string): { id: string; bound: number | undefined } {
    const tags = this.metricTags(user, clientId);
    return { id: tags.join('\u0000'), bound: this.quotaLimit(tags) };
  }

  private rateFor([user, clientId]: [string, string]): Rate {
    const id = `${user}\u0000${clientId}`;
    let rate = this.rates.get(id);
    if (!rate) this.rates.set(id, (rate = new Rate(NUM_QUOTA_SAMPLES, QUOTA_WINDOW_MS)));
    return rate;
  }

  private has(user: string | null | undefined, clientId: string | null | undefined): boolean {
    return this.store.valueOf(quotaEntity(user, clientId), this.key) !== undefined;
  }

  /** DefaultQuotaCallback.quotaMetricTags: which (user, client-id) the usage is counted under; '' leaves a part out. */
  private metricTags(user: string, clientId: string): [string, string] {
    if (this.has(user, clientId) || this.has(user, null)) return [user, clientId];
    if (this.has(user, undefined)) return [user, ''];
    if (this.has(null, clientId) || this.has(null, null)) return [user, clientId];
    if (this.has(null, undefined)) return [user, ''];
    return ['', clientId];
  }

  /** DefaultQuotaCallback.quotaLimit: the bound for these tags, or undefined for none. */
  private quotaLimit([user, clientId]: [string, string]): number | undefined {
    const v = (u: string | null | undefined, c: string | null | undefined) => this.store.valueOf(quotaEntity(u, c), this.key);
    if (user && clientId) return v(user, clientId) ?? v(user, null) ?? v(null, clientId) ?? v(null, null);
    if (user) return v(user, undefined) ?? v(null, undefined);
    if (clientId) return v(undefined, clientId) ?? v(undefined, null);
    return undefined;
  }
}

/** The cluster's quotas: the entities and values, the Produce and Fetch bandwidth managers and the controller mutation one reading them. */
export class ClientQuotas {
  readonly store = new ClientQuotaStore();
  readonly produce: ClientQuotaManager;
  readonly fetch: ClientQuotaManager;
  readonly controllerMutation: ControllerMutationQuotaManager;

  constructor(clock: Clock) {
    this.produce = new ClientQuotaManager(this.store, clock, 'producer_byte_rate');
    this.fetch = new ClientQuotaManager(this.store, clock, 'consumer_byte_rate');
    this.controllerMutation = new ControllerMutationQuotaManager(new ClientQuotaManager(this.store, clock, 'controller_mutation_rate'), clock);
  }
}

/** Who a request's quotas are counted for: its connection's user (ANONYMOUS without SASL) and its client id ('' for none). */
export function quotaIdentity(principal: string | null, clientId: string | null): [user: string, clientId: string] {
  return [principal ?? ANONYMOUS, clientId ?? ''];
}
