// Preset parameters: which topics, groups, client ids or transactional ids a
// preset aims at. A preset declares the parameters it takes
// (`params: { topic: { description } }`) and its rules name them where a
// match field goes (`"match": { "api": "Produce", "topic": { "param": "topic" } }`).
// Given a value (an exact name, or { regex }), the field matches it; not
// given, the field is left out and matches anything. A preset is named with
// its values as `{ name, params }` (library, jest fixture, HTTP) or as one
// string, `lost-ack?topic=orders&group=/^app-/` (CLI, KAFKAESQUE_PRESETS): a
// value between slashes is a regular expression.
import { RuleValidationError, type FaultRuleInput } from '../chaos/api.js';
import { nameFilter, type NameFilter } from '../chaos/match.js';
import { describe, fail, isPlainObject, record, string } from '../chaos/validate.js';

/** A parameter a preset takes. */
export interface PresetParam {
  description: string;
}

/** A preset and the values of its parameters. */
export interface PresetRef {
  /** A built-in preset's name or a preset file's path. */
  name: string;
  params?: Record<string, NameFilter>;
}

/** The match fields a parameter may stand for. */
export const PARAM_FIELDS = ['topic', 'groupId', 'clientId', 'transactionalId'] as const;

const PARAM_NAME = /^[a-zA-Z][a-zA-Z0-9]*$/;

const isRef = (v: unknown): v is { param: string } => isPlainObject(v) && Object.keys(v).length === 1 && typeof v.param === 'string';

/** Checks a preset file's `params` declaration. */
export function parseParamDeclarations(raw: unknown): Record<string, PresetParam> {
  if (raw === undefined) return {};
  if (!isPlainObject(raw)) fail('params', `must be an object of parameter names to { description }, got ${describe(raw)}`);
  const out: Record<string, PresetParam> = {};
  for (const [name, decl] of Object.entries(raw)) {
    if (!PARAM_NAME.test(name)) fail(`params.${name}`, 'a parameter name is letters and digits, starting with a letter');
    out[name] = { description: string(record(decl, `params.${name}`, ['description']).description, `params.${name}.description`) };
  }
  return out;
}

/**
 * Checks the parameter references of one rule against the declarations and
 * returns the rule as it is with no value given (references left out), for
 * the rule parsers to check. `used` collects the names referenced.
 */
export function checkParamRefs(rule: Record<string, unknown>, declared: Record<string, PresetParam>, used: Set<string>): Record<string, unknown> {
  if (!isPlainObject(rule.match)) return rule;
  const match: Record<string, unknown> = {};
  for (const [field, v] of Object.entries(rule.match)) {
    if (!isRef(v)) {
      match[field] = v;
      continue;
    }
    if (!(PARAM_FIELDS as readonly string[]).includes(field)) fail(`match.${field}`, `a parameter can stand only for match.${PARAM_FIELDS.join(', match.')}`);
    if (!(v.param in declared)) fail(`match.${field}.param`, `names no declared parameter ('${v.param}'); declare it under params`);
    used.add(v.param);
  }
  // match.partition needs match.topic: without a topic value it goes too.
  if (match.partition !== undefined && match.topic === undefined) delete match.partition;
  return { ...rule, match };
}

/** Checks the values given for a preset's parameters; a refusal names the preset, the parameter and why. */
export function checkParamValues(preset: { name: string; params?: Record<string, PresetParam> }, values: unknown): Record<string, NameFilter> {
  const where = `preset ${preset.name}`;
  if (values === undefined) return {};
  if (!isPlainObject(values)) throw new RuleValidationError('params', `must be an object of parameter values, got ${describe(values)}`, where);
  const declared = Object.keys(preset.params ?? {});
  const out: Record<string, NameFilter> = {};
  for (const [name, v] of Object.entries(values)) {
    if (!declared.includes(name)) {
      throw new RuleValidationError(`params.${name}`, declared.length ? `is not a parameter of ${preset.name} (it takes: ${declared.join(', ')})` : `${preset.name} takes no parameters`, where);
    }
    try {
      out[name] = nameFilter(v, `params.${name}`).value;
    } catch (err) {
      if (err instanceof RuleValidationError) throw new RuleValidationError(err.field, err.reason, where);
      throw err;
    }
  }
  return out;
}

/** The rules with the given values in place of the references (a reference without a value is left out). */
export function bindParams(rules: readonly FaultRuleInput[], values: Record<string, NameFilter>): FaultRuleInput[] {
  return rules.map((rule) => {
    if (!rule.match) return rule;
    const match: Record<string, unknown> = {};
    for (const [field, v] of Object.entries(rule.match)) {
      if (!isRef(v)) match[field] = v;
      else if (values[v.param] !== undefined) match[field] = values[v.param];
    }
    if (match.partition !== undefined && match.topic === undefined) delete match.partition;
    return { ...rule, match: match as FaultRuleInput['match'] };
  });
}

/** Reads the one-string form: `name?param=value&param=/regex/` (values URL-decoded). */
export function parsePresetRef(spec: string | PresetRef): PresetRef {
  if (typeof spec !== 'string') {
    if (!isPlainObject(spec) || typeof spec.name !== 'string' || spec.name === '') fail('presets[]', `must be a preset name, a path, or { name, params }, got ${describe(spec)}`);
    record(spec, 'preset', ['name', 'params']);
    return spec;
  }
  const q = spec.indexOf('?');
  if (q < 0) return { name: spec };
  const params: Record<string, NameFilter> = {};
  for (const [key, value] of new URLSearchParams(spec.slice(q + 1))) {
    params[key] = value.length >= 2 && value.startsWith('/') && value.endsWith('/') ? { regex: value.slice(1, -1) } : value;
  }
  return { name: spec.slice(0, q), params };
}
