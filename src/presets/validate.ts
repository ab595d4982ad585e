// A preset file's shape: { name, description, rules, expect }. Each rule is
// checked by the chaos layer's own parsers (the ones POST /v1/faults runs
// through ChaosController.addRule), so a preset cannot say what the API would
// refuse. Node ids cannot be checked before a cluster exists: at load any id
// passes, and applying the preset checks them against the real cluster.
import { RuleValidationError, type FaultRuleInput } from '../chaos/api.js';
import { parseAction } from '../chaos/actions/index.js';
import { parseMatch } from '../chaos/match.js';
import { parseTrigger } from '../chaos/triggers.js';
import { describe, fail, isPlainObject, record, string } from '../chaos/validate.js';
import type { NameFilter } from '../chaos/match.js';
import { checkParamRefs, parseParamDeclarations, type PresetParam } from './params.js';

export interface Preset {
  /** Lower-case words joined by '-', e.g. 'lost-ack'; the file is <name>.json. */
  name: string;
  description: string;
  /** Rules; a match field may be `{ param: name }`, a reference to a parameter (./params.ts). */
  rules: FaultRuleInput[];
  /** What a correct application does under it. */
  expect: string;
  /** The parameters it takes: which topics, groups, client ids or transactional ids it aims at. */
  params?: Record<string, PresetParam>;
  /** Values for its parameters, as asked for by name (resolvePreset('lost-ack?topic=orders')); applyPreset uses them. */
  args?: Record<string, NameFilter>;
  /** Where it was loaded from, when it came from a file. */
  file?: string;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const RULE_FIELDS = ['id', 'description', 'match', 'trigger', 'action'] as const;

/** Stands in for the cluster's node list at load time: every id is accepted. */
const anyNode: readonly number[] = Object.assign([], { includes: () => true });

/** Prefixes a RuleValidationError's field (`rules[1].action.ms`) and names the file. */
function within<T>(prefix: string | undefined, file: string | undefined, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof RuleValidationError && err.file === undefined) {
      // The rule parsers name the whole rule 'rule' ('rule.actoin' for a stray key): within a preset it is rules[i].
      const own = err.field === 'rule' ? '' : err.field.startsWith('rule.') ? err.field.slice(5) : err.field;
      const field = prefix === undefined ? err.field : own === '' ? prefix : `${prefix}.${own}`;
      throw new RuleValidationError(field, err.reason, file);
    }
    throw err;
  }
}

/** Checks one rule as POST /v1/faults would (node ids aside); throws RuleValidationError naming `rule.<field>`. */
export function validateRule(raw: unknown, nodeIds: readonly number[] = anyNode): FaultRuleInput {
  const r = record(raw, 'rule', RULE_FIELDS);
  if (r.id !== undefined && (typeof r.id !== 'string' || r.id === '')) fail('id', `must be a non-empty string, got ${describe(r.id)}`);
  if (r.description !== undefined && typeof r.description !== 'string') fail('description', `must be a string, got ${describe(r.description)}`);
  parseMatch(r.match, nodeIds);
  parseTrigger(r.trigger);
  parseAction(r.action, { nodeIds });
  return r as unknown as FaultRuleInput;
}

/** Checks a parsed preset file; every error names the file, the field and why. */
export function validatePreset(raw: unknown, file?: string): Preset {
  return within(undefined, file, () => {
    if (!isPlainObject(raw)) fail('preset', `must be a JSON object, got ${describe(raw)}`);
    const p = record(raw, 'preset', ['name', 'description', 'params', 'rules', 'expect']);
    const name = string(p.name, 'name');
    if (!NAME.test(name)) fail('name', `must be lower-case letters, digits and '-', got ${describe(name)}`);
    const description = string(p.description, 'description');
    const expect = string(p.expect, 'expect');
    if (!Array.isArray(p.rules) || p.rules.length === 0) fail('rules', `must be a non-empty list of fault rules, got ${describe(p.rules)}`);
    const params = parseParamDeclarations(p.params);
    const used = new Set<string>();
    const ids = new Set<string>();
    const rules = p.rules.map((rule, i) =>
      within(`rules[${i}]`, file, () => {
        const r = isPlainObject(rule) ? (validateRule(checkParamRefs(rule, params, used)), rule as unknown as FaultRuleInput) : validateRule(rule);
        if (r.id !== undefined) {
          if (ids.has(r.id)) fail('id', `${describe(r.id)} is used by an earlier rule`);
          ids.add(r.id);
        }
        return r;
      }),
    );
    for (const name of Object.keys(params)) if (!used.has(name)) fail(`params.${name}`, 'is named by no rule (a rule names it as { "param": "' + name + '" } in its match)');
    const preset: Preset = { name, description, rules, expect, ...(Object.keys(params).length ? { params } : {}) };
    if (file !== undefined) preset.file = file;
    return preset;
  });
}
