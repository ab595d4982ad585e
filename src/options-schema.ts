// The one schema of kafkaesque's options: every key of KafkaesqueOptions with
// its type and bounds, in one table (`optionSchemas`). startCluster,
// startProxy, the jest fixture (globals.kafkaesque, KAFKAESQUE_OPTIONS) and
// the CLI all check options here, so a key, a type and a range are checked
// once, and a refusal is an OptionsError naming where the options came from,
// the key and the value. To add an option: a field in KafkaesqueOptions and
// one entry below (the `satisfies` makes the table cover every key).
// valibot, imported piece by piece: it loads in ~10 ms and the CLI bundle keeps only these.
import {
  array,
  boolean,
  check,
  custom,
  integer,
  literal,
  maxValue,
  minLength,
  minValue,
  number,
  optional,
  picklist,
  pipe,
  record,
  safeParse,
  strictObject,
  string,
  union,
  type BaseIssue,
  type GenericSchema,
  type InferOutput,
  type ObjectEntries,
} from 'valibot';
import type { Clock } from './broker/clock.js';
import type { Logger } from './logger.js';
import type { KafkaesqueOptions } from './options.js';
import { validateTlsOptions } from './server/tls.js';
import { SASL_MECHANISMS } from './server/sasl/authenticator.js';
import { CONCRETE_OPERATIONS, CONCRETE_PATTERN_TYPES, CONCRETE_PERMISSIONS, CONCRETE_RESOURCE_TYPES } from './broker/acl/acl-types.js';
import { KAFKA_VERSIONS, kafkaVersionProfile } from './broker/kafka-version/profiles.js';

/** An option refused: `source` says where the options came from (startCluster, KAFKAESQUE_OPTIONS, …), `key` the option (or `topics[0].name`), `value` what was given. */
export class OptionsError extends TypeError {
  override name = 'OptionsError';
  constructor(
    readonly source: string,
    readonly key: string,
    readonly value: unknown,
    readonly reason: string,
  ) {
    super(`${source}: ${key === '' ? '' : `${key}: `}${reason}`);
  }
}

/** Most brokers a cluster may have: each is two listeners (broker and proxy) and its own state; test clusters have a handful. */
export const MAX_BROKERS = 64;
/** Most partitions of one topic: each is a log and replica state, and every Metadata answer lists them all. */
export const MAX_PARTITIONS = 10_000;
/** Timeouts and sizes are Kafka int32s; Node timers take at most this many ms too. */
export const MAX_INT32 = 2 ** 31 - 1;

/** A value as an error message shows it. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'number') return String(v);
  try {
    const text = JSON.stringify(v);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(v);
  }
}

type Issue = BaseIssue<unknown>;
const got = (issue: Issue) => `, got ${describeValue(issue.input)}`;

/** A whole number from min to max; the bounds are read back by `optionBounds` for --help. */
export function whole(min: number, max: number) {
  const message = (issue: Issue) => `must be a whole number from ${min} to ${max}${got(issue)}`;
  return pipe(number(message), integer(message), minValue(min, message), maxValue(max, message));
}

const port = whole(0, 65535);
const ms = whole(0, MAX_INT32);
const positive32 = whole(1, MAX_INT32);
const flag = boolean((issue) => `must be true or false${got(issue)}`);
const text = pipe(
  string((issue) => `must be a string${got(issue)}`),
  check((s) => s.trim() !== '', 'must not be empty'),
);
const texts = array(text, (issue) => `must be an array of strings${got(issue)}`);

/** Closest known name, for "did you mean": a small edit distance, or the same letters in another case. */
export function closest(name: string, known: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length]!;
  };
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = k.toLowerCase() === name.toLowerCase() ? 0 : distance(name, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

const unknownKey = (key: string, known: readonly string[], what: string) => {
  const near = closest(key, known);
  return `unknown ${what}${near ? `; did you mean ${near}?` : ` (known: ${known.join(', ')})`}`;
};

/** An object with exactly these fields: an unknown one is named (with the closest known one), a missing one said to be required. */
function strict<E extends ObjectEntries>(entries: E, what: string) {
  const known = Object.keys(entries);
  return strictObject(entries, (issue) => {
    if (issue.expected === 'never') return unknownKey(String(issue.input), known, 'field');
    if (issue.input === undefined && issue.path?.length) {
      // A typo of this field is the likely reason it is missing: say so.
      const given = issue.path.at(-1)!.input;
      const strays = typeof given === 'object' && given !== null ? Object.keys(given).filter((k) => !known.includes(k)) : [];
      return `required${strays.length ? ` (given instead: ${strays.join(', ')})` : ''}`;
    }
    return `must be ${what}${got(issue)}`;
  });
}

const topic = strict(
  {
    name: text,
    partitions: optional(whole(1, MAX_PARTITIONS)),
    replicationFactor: optional(whole(1, MAX_BROKERS)),
    configs: optional(record(string(), string((issue) => `must be a string (Kafka configs are text)${got(issue)}`), (issue) => `must be an object of config name to string${got(issue)}`)),
  },
  'a topic: { name, partitions?, replicationFactor?, configs? }',
);

const sasl = strict(
  {
    users: optional(record(string(), string((issue) => `must be a password string${got(issue)}`), (issue) => `must be an object of user name to password${got(issue)}`)),
    mechanisms: optional(array(picklist(SASL_MECHANISMS, (issue) => `must be one of ${SASL_MECHANISMS.join(', ')}${got(issue)}`), (issue) => `must be an array${got(issue)}`)),
    oauthbearer: optional(
      strict(
        {
          principalClaimName: optional(text),
          scopeClaimName: optional(text),
          requiredScope: optional(texts),
          allowableClockSkewMs: optional(ms),
        },
        'an object { principalClaimName?, scopeClaimName?, requiredScope?, allowableClockSkewMs? }',
      ),
    ),
  },
  'an object { users?, mechanisms?, oauthbearer? }',
);

/** "User:alice": Kafka principals are type:name (SecurityUtils.parseKafkaPrincipal). */
const principal = pipe(
  string((issue) => `must be a principal string like "User:alice"${got(issue)}`),
  check((s) => s.indexOf(':') > 0, (issue) => `must be a principal as type:name, like "User:alice"${got(issue)}`),
);
const names = <T extends readonly string[]>(list: T) => picklist(list, (issue) => `must be one of ${list.join(', ')}${got(issue)}`);
const acl = strict(
  {
    resourceType: names(CONCRETE_RESOURCE_TYPES),
    resourceName: text,
    patternType: optional(names(CONCRETE_PATTERN_TYPES)),
    principal,
    host: optional(text),
    operation: names(CONCRETE_OPERATIONS),
    permissionType: optional(names(CONCRETE_PERMISSIONS)),
  },
  'an ACL { resourceType, resourceName, patternType?, principal, host?, operation, permissionType? }',
);
const authorizer = strict(
  {
    superUsers: optional(array(principal, (issue) => `must be an array of principals${got(issue)}`)),
    allowEveryoneIfNoAclFound: optional(flag),
    acls: optional(array(acl, (issue) => `must be an array of ACLs${got(issue)}`)),
  },
  'an object { superUsers?, allowEveryoneIfNoAclFound?, acls? }',
);

const TLS_FIELDS = ['cert', 'key', 'ca', 'clientAuth', 'clientCa'];
/** `true`, or the PEM fields; what they mean together is validateTlsOptions' to say (it names tls.<field>). */
const tls = custom<true | object>(
  (v) => {
    if (v === true) return true;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const stray = Object.keys(v).find((k) => !TLS_FIELDS.includes(k));
    if (stray !== undefined) throw new TypeError(`tls.${stray} ${unknownKey(stray, TLS_FIELDS, 'field')}`);
    validateTlsOptions(v);
    return true;
  },
  (issue) => `must be true or { cert?, key?, ca?, clientAuth?, clientCa? }${got(issue)}`,
);

const methods = <T>(names: string[], what: string) =>
  custom<T>((v) => typeof v === 'object' && v !== null && names.every((n) => typeof (v as Record<string, unknown>)[n] === 'function'), (issue) => `must be ${what}${got(issue)}`);

/** A Kafka version with a profile: '3.9', or a patch release of it ('3.9.1'). */
const kafkaVersion = pipe(
  string((issue) => `must be a Kafka version string such as '3.9'${got(issue)}`),
  check((v) => kafkaVersionProfile(v) !== undefined, (issue) => `must be one of ${KAFKA_VERSIONS.join(', ')} (or a patch release of one, such as 3.9.1)${got(issue)}`),
);

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/**
 * The table: one schema per option. Every key may be left out (or
 * undefined); `checkOptions` refuses keys that are not here.
 */
export const optionSchemas = {
  brokers: whole(1, MAX_BROKERS),
  nodeIds: pipe(
    array(whole(0, MAX_INT32), (issue) => `must be an array of node ids${got(issue)}`),
    check((ids) => new Set(ids).size === ids.length, (issue) => `node ids must be distinct${got(issue)}`),
  ),
  port,
  ports: array(port, (issue) => `must be an array of ports${got(issue)}`),
  host: text,
  advertisedHost: text,
  clusterId: text,
  kafkaVersion,
  autoCreateTopics: flag,
  coldStart: flag,
  defaultPartitions: whole(1, MAX_PARTITIONS),
  defaultReplicationFactor: whole(1, MAX_BROKERS),
  minInsyncReplicas: whole(1, MAX_BROKERS),
  replicationLagMs: ms,
  groupInitialRebalanceDelayMs: ms,
  producerIdExpirationMs: ms,
  producerIdExpirationCheckIntervalMs: whole(1, MAX_INT32),
  transactionMaxTimeoutMs: whole(1, MAX_INT32),
  maxRequestSize: positive32,
  sasl,
  authorizer,
  tls,
  maxConnections: positive32,
  maxConnectionsPerIp: positive32,
  connectionsMaxIdleMs: ms,
  requestTimeoutMs: ms,
  fetchMaxBytes: positive32,
  maxRecordsPerFetch: positive32,
  controlPort: port,
  controlHost: text,
  controlToken: text,
  controlAllowRemote: flag,
  // Each entry is checked further (a host name or '.domain') where the control server starts.
  controlAllowedHosts: texts,
  topics: array(topic, (issue) => `must be an array of topics { name, partitions?, replicationFactor?, configs? }${got(issue)}`),
  // A name or path ('lost-ack?topic=orders' too), or { name, params }; parameter values are checked against the preset when it is loaded.
  presets: array(
    union(
      [text, strict({ name: text, params: optional(record(string(), union([string(), strictObject({ regex: string() })]), (issue) => `must be an object of parameter name to value${got(issue)}`)) }, 'a preset { name, params? }')],
      (issue) => `must be a preset name, a path, or { name, params }${got(issue)}`,
    ),
    (issue) => `must be an array of presets${got(issue)}`,
  ),
  clock: methods<Clock>(['now', 'setTimer'], 'a clock with now() and setTimer()'),
  logger: methods<Logger>(['info', 'warn', 'error', 'debug', 'child'], 'a pino logger (info, warn, error, debug, child)'),
  logLevel: picklist(LOG_LEVELS, (issue) => `must be one of ${LOG_LEVELS.join(', ')}${got(issue)}`),
  prettyLogs: flag,
  proxy: flag,
  direct: flag,
  eventsFile: text,
  report: text,
  seed: whole(0, 2 ** 32 - 1),
  upstream: text,
} satisfies { [K in keyof KafkaesqueOptions]-?: GenericSchema };

export type OptionKey = keyof typeof optionSchemas;

/** Compile-time check that each schema gives its option's type: a mismatch names the key here. */
type Mismatched = { [K in OptionKey]: InferOutput<(typeof optionSchemas)[K]> extends NonNullable<KafkaesqueOptions[K]> ? never : K }[OptionKey];
const schemasMatchTheOptions: [Mismatched] extends [never] ? true : Mismatched = true;
void schemasMatchTheOptions;
export const OPTION_KEYS = Object.keys(optionSchemas) as OptionKey[];

/** [min, max] of a whole-number option (or of the items of a list of them), for --help and flag checks. */
export function optionBounds(key: OptionKey): [number, number] | undefined {
  type Node = { type?: string; pipe?: Node[]; item?: Node; requirement?: unknown };
  const find = (s: Node | undefined): [number, number] | undefined => {
    if (!s) return undefined;
    if (s.type === 'array') return find(s.item);
    const min = s.pipe?.find((a) => a.type === 'min_value')?.requirement;
    const max = s.pipe?.find((a) => a.type === 'max_value')?.requirement;
    if (typeof min === 'number' && typeof max === 'number') return [min, max];
    return find(s.pipe?.[0]);
  };
  return find(optionSchemas[key] as Node);
}

/** `topics[0].name` from a valibot issue path. */
function pathText(issue: Issue): string {
  let out = '';
  for (const step of issue.path ?? []) {
    const k = (step as { key: unknown }).key;
    out += typeof k === 'number' ? `[${k}]` : `.${String(k)}`;
  }
  return out;
}

/** Checks one option's value; returns the refusal (key path, value, reason) or undefined. */
export function checkOption(key: OptionKey, value: unknown): { key: string; value: unknown; reason: string } | undefined {
  let result;
  try {
    result = safeParse(optionSchemas[key], value, { abortEarly: true });
  } catch (err) {
    // validateTlsOptions throws "tls.<field> <why>": keep the field in the key.
    const message = (err as Error).message;
    const field = /^(\w+\.\w+):? ((?:must|unknown) .*)$/s.exec(message);
    if (field && field[1]!.startsWith(`${key}.`)) return { key: field[1]!, value: (value as Record<string, unknown>)[field[1]!.slice(key.length + 1)], reason: field[2]! };
    return { key, value, reason: message };
  }
  if (result.success) return undefined;
  const issue = result.issues[0] as Issue;
  // An unknown field's issue has the field's own value in its last path step.
  const value_ = issue.expected === 'never' ? (issue.path?.at(-1) as { value?: unknown } | undefined)?.value : issue.input;
  return { key: `${key}${pathText(issue)}`, value: value_, reason: issue.message };
}

export interface CheckOptionsRules {
  /** Keys refused here with the reason (the jest fixture: logger and clock are not JSON). */
  refuse?: Partial<Record<OptionKey, string>>;
}

/**
 * Checks an options object against the table: an object, no unknown key,
 * each value of its type and within its bounds. Keys given as undefined are
 * dropped (they mean "the default"). Throws OptionsError naming `source`.
 */
export function checkOptions(input: unknown, source: string, rules: CheckOptionsRules = {}): Partial<KafkaesqueOptions> {
  if (input === undefined) return {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new OptionsError(source, '', input, `must be an object of options, got ${describeValue(input)}`);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!Object.hasOwn(optionSchemas, key)) throw new OptionsError(source, key, value, unknownKey(key, OPTION_KEYS, 'option'));
    const refused = rules.refuse?.[key as OptionKey];
    if (refused !== undefined) throw new OptionsError(source, key, value, refused);
    if (value === undefined) continue;
    const bad = checkOption(key as OptionKey, value);
    if (bad) throw new OptionsError(source, bad.key, bad.value, bad.reason);
    out[key] = value;
  }
  return out as Partial<KafkaesqueOptions>;
}

/** What one option says about the others, once merged over the defaults: lists as long as brokers, ports that fit. */
export function checkCombination(o: KafkaesqueOptions, source: string): void {
  if (o.nodeIds && o.nodeIds.length !== o.brokers) throw new OptionsError(source, 'nodeIds', o.nodeIds, `has ${o.nodeIds.length} id(s) for ${o.brokers} broker(s): give one per broker`);
  if (o.ports) {
    if (o.ports.length !== o.brokers) throw new OptionsError(source, 'ports', o.ports, `has ${o.ports.length} port(s) for ${o.brokers} broker(s): give one per broker`);
    const taken = o.ports.filter((p) => p !== 0);
    const twice = taken.find((p, i) => taken.indexOf(p) !== i);
    if (twice !== undefined) throw new OptionsError(source, 'ports', o.ports, `port ${twice} is given twice (0 = a free port may repeat)`);
  } else if (o.port !== 0 && o.port + o.brokers - 1 > 65535) {
    throw new OptionsError(source, 'port', o.port, `with ${o.brokers} broker(s) on ${o.port}, ${o.port + 1}, … the last port would be ${o.port + o.brokers - 1}, past 65535`);
  }
}
