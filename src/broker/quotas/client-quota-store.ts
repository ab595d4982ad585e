// The cluster's client quotas: per entity (user, client-id, user + client-id,
// or ip; a null name is the entity type's default), a value per quota key.
// Altered as KRaft's ClientQuotaControlManager.alterClientQuotas checks and
// applies, described as ClientQuotasImage.describe matches, and resolved for
// a connection as Kafka's DefaultQuotaCallback does (ClientQuotaManager).
import { isIP } from 'node:net';
import type { ErrorName } from '../../protocol/errors.js';

export const USER = 'user';
export const CLIENT_ID = 'client-id';
export const IP = 'ip';

/** Entity type → name (null: the default entity of that type), in the order given. */
export type QuotaEntity = ReadonlyMap<string, string | null>;

/** QuotaConfig: the keys user/client-id entities take, and ip entities', with their ConfigDef types. */
const USER_AND_CLIENT_KEYS = new Map([
  ['producer_byte_rate', 'LONG'],
  ['consumer_byte_rate', 'LONG'],
  ['request_percentage', 'DOUBLE'],
  ['controller_mutation_rate', 'DOUBLE'],
]);
const IP_KEYS = new Map([['connection_creation_rate', 'INT']]);

export interface QuotaAlteration {
  entity: QuotaEntity;
  /** key → new value, or null to remove it. */
  ops: { key: string; value: number | null }[];
}

export type QuotaResult = { entity: QuotaEntity; error: 'NONE' } | { entity: QuotaEntity; error: ErrorName; message: string };

/** MATCH_TYPE_EXACT, MATCH_TYPE_DEFAULT, MATCH_TYPE_SPECIFIED (DescribeClientQuotasRequest). */
export const MatchType = { EXACT: 0, DEFAULT: 1, SPECIFIED: 2 } as const;

export interface QuotaFilterComponent {
  entityType: string;
  matchType: number;
  match: string | null;
}

export class QuotaRequestError extends Error {
  constructor(
    readonly error: ErrorName,
    message: string,
  ) {
    super(message);
  }
}

/** ClientQuotaEntity's identity: its entries, whatever their order. */
const keyOf = (entity: QuotaEntity) => JSON.stringify([...entity].sort(([a], [b]) => a.localeCompare(b)));
/** ClientQuotaEntity.toString, as Kafka's messages print the entity. */
const describeEntity = (entity: QuotaEntity) => `ClientQuotaEntity(entries={${[...entity].map(([t, n]) => `${t}=${n}`).join(', ')}})`;

const invalid = (entity: QuotaEntity, message: string): QuotaResult => ({ entity, error: 'INVALID_REQUEST', message });

export class ClientQuotaStore {
  private readonly entries = new Map<string, { entity: QuotaEntity; values: Map<string, number> }>();
  /** Bumped on every change, so the quota managers know their cached limits are stale. */
  version = 0;

  /** AlterClientQuotas: every entity's result; validateOnly checks without applying. */
  alter(alterations: readonly QuotaAlteration[], validateOnly: boolean): QuotaResult[] {
    const results = new Map<string, QuotaResult>();
    const changes: (() => void)[] = [];
    for (const a of alterations) {
      const id = keyOf(a.entity);
      const seen = new Set<string>();
      let duplicateKey: string | undefined;
      for (const op of a.ops) {
        if (seen.has(op.key)) duplicateKey ??= op.key;
        seen.add(op.key);
      }
      // Kafka records the duplicate key's error and then, finding the entity answered, replaces it with this one.
      if (duplicateKey !== undefined || results.has(id)) {
        results.set(id, invalid(a.entity, `Ignoring duplicate entity ${describeEntity(a.entity)}`));
        continue;
      }
      results.set(id, this.alterEntity(a, changes));
    }
    if (!validateOnly) {
      for (const apply of changes) apply();
      if (changes.length) this.version++;
    }
    return [...results.values()];
  }

  private alterEntity({ entity, ops }: QuotaAlteration, changes: (() => void)[]): QuotaResult {
    if (entity.size === 0) return invalid(entity, 'Invalid empty client quota entity');
    for (const [type, name] of entity) {
      if (type !== USER && type !== CLIENT_ID && type !== IP) return invalid(entity, `Unhandled client quota entity type: ${type}`);
      if (name !== null && name.length === 0) return invalid(entity, `Empty ${type} not supported`);
    }
    let keys: Map<string, string>;
    if (entity.has(IP)) {
      // Kafka's message, its missing space included.
      if (entity.has(USER) || entity.has(CLIENT_ID)) return invalid(entity, 'Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId');
      const ip = entity.get(IP)!;
      // Kafka resolves the name (InetAddress.getByName); without DNS here, an address or a well-formed host name passes.
      if (ip !== null && !isIP(ip) && !/^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*$/.test(ip)) {
        return invalid(entity, `${ip} is not a valid IP or resolvable host.`);
      }
      keys = IP_KEYS;
    } else {
      keys = USER_AND_CLIENT_KEYS;
    }
    const current = this.entries.get(keyOf(entity))?.values;
    const mine: (() => void)[] = [];
    for (const { key, value } of ops) {
      if (value === null) {
        if (current?.has(key)) mine.push(() => this.remove(entity, key));
        continue;
      }
      const type = keys.get(key);
      if (!type) return invalid(entity, `Invalid configuration key ${key}`);
      if (value <= 0) return invalid(entity, `Quota ${key} must be greater than 0`);
      if (type === 'INT' && value > 2147483647) return invalid(entity, `Proposed value for ${key} is too large for an INT.`);
      if (type === 'LONG' && value > 9223372036854775807) return invalid(entity, `Proposed value for ${key} is too large for a LONG.`);
      if (type !== 'DOUBLE' && Math.abs(value % 1) > 1e-6) return invalid(entity, `${key} cannot be a fractional value.`);
      if (current?.get(key) !== value) mine.push(() => this.put(entity, key, value));
    }
    changes.push(...mine);
    return { entity, error: 'NONE' };
  }

  private put(entity: QuotaEntity, key: string, value: number): void {
    const id = keyOf(entity);
    let e = this.entries.get(id);
    if (!e) this.entries.set(id, (e = { entity, values: new Map() }));
    e.values.set(key, value);
  }

  private remove(entity: QuotaEntity, key: string): void {
    const id = keyOf(entity);
    const e = this.entries.get(id);
    if (!e) return;
    e.values.delete(key);
    if (e.values.size === 0) this.entries.delete(id);
  }

  /** DescribeClientQuotas: the entities matching the filter, with their values; throws QuotaRequestError for a bad filter. */
  describe(components: readonly QuotaFilterComponent[], strict: boolean): { entity: QuotaEntity; values: Map<string, number> }[] {
    const exact = new Map<string, string | null>();
    const typed = new Set<string>();
    for (const c of components) {
      if (c.entityType.length === 0) throw new QuotaRequestError('INVALID_REQUEST', 'Invalid empty entity type.');
      if (exact.has(c.entityType) || typed.has(c.entityType)) {
        throw new QuotaRequestError('INVALID_REQUEST', `Entity type ${c.entityType} cannot appear more than once in the filter.`);
      }
      if (c.entityType !== IP && c.entityType !== USER && c.entityType !== CLIENT_ID) {
        throw new QuotaRequestError('UNSUPPORTED_VERSION', `Unsupported entity type ${c.entityType}`);
      }
      if (c.matchType === MatchType.EXACT) {
        if (c.match === null) throw new QuotaRequestError('INVALID_REQUEST', 'Request specified MATCH_TYPE_EXACT, but set match string to null.');
        exact.set(c.entityType, c.match);
      } else if (c.matchType === MatchType.DEFAULT) {
        if (c.match !== null) throw new QuotaRequestError('INVALID_REQUEST', 'Request specified MATCH_TYPE_DEFAULT, but also specified a match string.');
        exact.set(c.entityType, null);
      } else if (c.matchType === MatchType.SPECIFIED) {
        if (c.match !== null) throw new QuotaRequestError('INVALID_REQUEST', 'Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.');
        typed.add(c.entityType);
      } else {
        throw new QuotaRequestError('INVALID_REQUEST', `Unknown match type ${c.matchType}`);
      }
    }
    const named = (t: string) => exact.has(t) || typed.has(t);
    if (named(IP) && (named(USER) || named(CLIENT_ID))) {
      throw new QuotaRequestError('INVALID_REQUEST', 'Invalid entity filter component combination. IP filter component should not be used with user or clientId filter component.');
    }
    return [...this.entries.values()].filter(({ entity }) => {
      if (strict && entity.size !== exact.size + typed.size) return false;
      for (const [t, n] of exact) if (!entity.has(t) || entity.get(t) !== n) return false;
      for (const t of typed) if (!entity.has(t)) return false;
      return true;
    });
  }

  /** The value of a key for exactly this entity. */
  valueOf(entity: QuotaEntity, key: string): number | undefined {
    return this.entries.get(keyOf(entity))?.values.get(key);
  }

  /** Whether any entity sets this key (Kafka records nothing for a quota type no entity sets). */
  anySets(key: string): boolean {
    for (const e of this.entries.values()) if (e.values.has(key)) return true;
    return false;
  }
}

/** An entity from optional user and client-id parts: undefined leaves a part out, null is its default. */
export function quotaEntity(user: string | null | undefined, clientId: string | null | undefined): QuotaEntity {
  const m = new Map<string, string | null>();
  if (user !== undefined) m.set(USER, user);
  if (clientId !== undefined) m.set(CLIENT_ID, clientId);
  return m;
}
