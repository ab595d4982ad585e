// `kafkaesque fault add` flags as a fault rule: --api Produce --topic t
// --trigger nth:1 --action drop-response --param then=hang. Only the syntax
// of the flags is checked here; the rule itself is checked by the instance
// (POST /v1/faults), which names the field it refuses.
import type { FaultRuleInput, RuleMatch, RuleTrigger, TriggerParty, TriggerStage } from '../chaos/api.js';
import { UsageError, keyValues } from './common.js';

export interface RuleFlags {
  id?: string;
  description?: string;
  api?: string[];
  topic?: string;
  partition?: number;
  node?: number[];
  'client-id'?: string;
  group?: string;
  'transactional-id'?: string;
  trigger?: string;
  times?: number;
  per?: string;
  stage?: string;
  action?: string;
  param: string[];
}

const num = (s: string, spec: string): number => {
  const n = Number(s);
  if (s.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--trigger ${spec}: "${s}" is not a number`);
  return n;
};

/** "always", "nth:3", "first:3", "after:2", "probability:0.1" (or "p:0.1"), "window:1000-5000" (ms after the rule is added). */
export function parseTriggerFlag(spec: string, times?: number): RuleTrigger {
  const [type, arg, extra] = spec.split(':');
  const t = times === undefined ? {} : { times };
  if (extra !== undefined) throw new UsageError(`--trigger ${spec}: expected type[:argument]`);
  switch (type) {
    case 'always':
      if (arg !== undefined) throw new UsageError(`--trigger ${spec}: 'always' takes no argument`);
      return { type: 'always', ...t };
    case 'nth':
    case 'first':
    case 'after':
      if (arg === undefined) throw new UsageError(`--trigger ${spec}: expected ${type}:N`);
      return { type, n: num(arg, spec), ...t };
    case 'p':
    case 'probability':
      if (arg === undefined) throw new UsageError(`--trigger ${spec}: expected probability:P (0 to 1)`);
      return { type: 'probability', p: num(arg, spec), ...t };
    case 'window': {
      const m = /^(\d+)-(\d+)$/.exec(arg ?? '');
      if (!m) throw new UsageError(`--trigger ${spec}: expected window:FROM-TO (ms after the rule is added)`);
      return { type: 'window', fromMs: Number(m[1]), toMs: Number(m[2]), ...t };
    }
    default:
      throw new UsageError(`--trigger ${spec}: expected always, nth:N, first:N, after:N, probability:P or window:FROM-TO`);
  }
}

const PARTIES: readonly TriggerParty[] = ['group', 'clientId', 'producerId', 'transactionalId', 'connection', 'topic'];

/** --per: who the trigger counts for (src/chaos/parties.ts). */
export function parsePerFlag(spec: string): TriggerParty {
  const party = PARTIES.find((p) => p === spec);
  if (!party) throw new UsageError(`--per ${spec}: expected ${PARTIES.join(', ')}`);
  return party;
}

/** --stage: "stable", "committed" or "fetched:N" (requests count once their party got there). */
export function parseStageFlag(spec: string): TriggerStage {
  if (spec === 'stable' || spec === 'committed') return spec;
  const m = /^fetched:(\d+)$/.exec(spec);
  if (!m) throw new UsageError(`--stage ${spec}: expected stable, committed or fetched:N`);
  return { fetched: Number(m[1]) };
}

/** True when any rule flag is given (then a JSON rule or --file is not allowed too). */
export function hasRuleFlags(f: RuleFlags): boolean {
  return [f.api, f.topic, f.partition, f.node, f['client-id'], f.group, f['transactional-id'], f.trigger, f.times, f.per, f.stage, f.action, f.id, f.description].some((v) => v !== undefined) || f.param.length > 0;
}

export function ruleFromFlags(f: RuleFlags): FaultRuleInput {
  if (f.action === undefined) throw new UsageError('fault add: give a rule as JSON, --file rule.json, or --action TYPE with match and trigger flags');
  const match: RuleMatch = {};
  if (f.node?.length) match.nodeId = f.node.length === 1 ? f.node[0] : f.node;
  if (f.api?.length) match.api = f.api.length === 1 ? f.api[0] : f.api;
  if (f['client-id'] !== undefined) match.clientId = f['client-id'];
  if (f.topic !== undefined) match.topic = f.topic;
  if (f.partition !== undefined) match.partition = f.partition;
  if (f.group !== undefined) match.groupId = f.group;
  if (f['transactional-id'] !== undefined) match.transactionalId = f['transactional-id'];
  const rule: FaultRuleInput = { action: { ...keyValues(f.param, 'param'), type: f.action } };
  if (f.id !== undefined) rule.id = f.id;
  if (f.description !== undefined) rule.description = f.description;
  if (Object.keys(match).length) rule.match = match;
  if (f.trigger !== undefined) rule.trigger = parseTriggerFlag(f.trigger, f.times);
  else if (f.times !== undefined || f.per !== undefined || f.stage !== undefined) rule.trigger = { type: 'always', ...(f.times === undefined ? {} : { times: f.times }) };
  if (rule.trigger && f.per !== undefined) rule.trigger.per = parsePerFlag(f.per);
  if (rule.trigger && f.stage !== undefined) rule.trigger.stage = parseStageFlag(f.stage);
  return rule;
}
