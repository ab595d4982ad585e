// The one way rules of a preset reach a fault controller: the CLI (start
// --preset, preset apply), the HTTP API (POST /v1/presets/:name/apply), the
// jest fixture and library users all call applyPreset. All or nothing: when
// the cluster refuses a rule (a node id it does not have), the rules already
// added are removed again and the error names the file and `rules[i].<field>`.
// A rule without an id of its own gets `<preset>-<n>`, the next n not taken.
import { RuleValidationError, type ChaosController, type FaultRule } from '../chaos/api.js';
import type { Preset } from './validate.js';
import { bindParams, checkParamValues } from './params.js';

/** `params`: values for the preset's parameters (default: those it was resolved with); refused naming the preset and parameter. */
export function applyPreset(chaos: ChaosController, preset: Preset, params: unknown = preset.args): FaultRule[] {
  const added: FaultRule[] = [];
  const rules = bindParams(preset.rules, checkParamValues(preset, params));
  // Ids say which preset a rule came from: lost-ack-1, lost-ack-2, …; applied again, the numbers go on (lost-ack-3).
  let n = 0;
  const nextId = () => {
    let id: string;
    do id = `${preset.name}-${++n}`;
    while (chaos.rule(id) !== undefined || preset.rules.some((r) => r.id === id));
    return id;
  };
  try {
    rules.forEach((rule, i) => {
      try {
        added.push(chaos.addRule({ ...rule, id: rule.id ?? nextId(), description: rule.description ?? `${preset.name}: ${preset.description}` }));
      } catch (err) {
        if (err instanceof RuleValidationError) {
          const own = err.field === 'rule' ? '' : err.field.startsWith('rule.') ? err.field.slice(5) : err.field;
          throw new RuleValidationError(own === '' ? `rules[${i}]` : `rules[${i}].${own}`, err.reason, preset.file ?? `preset ${preset.name}`);
        }
        throw err;
      }
    });
  } catch (err) {
    for (const r of added) chaos.removeRule(r.id);
    throw err;
  }
  return added;
}
