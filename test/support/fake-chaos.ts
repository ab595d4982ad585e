// A stand-in ChaosController for the control API's tests only: rules kept in
// a map with a minimal validation, events in an array. Nothing matches
// traffic; a test makes a rule fire with fire(). The real controller is the
// proxy's (src/chaos/).
import { RuleValidationError, type ChaosController, type ChaosEvent, type FaultRule, type FaultRuleInput } from '../../src/chaos/api.js';

const TRIGGERS = new Set(['always', 'nth', 'first', 'after', 'probability', 'window']);

export class FakeChaos implements ChaosController {
  readonly seed = 1234;
  private readonly byId = new Map<string, FaultRule>();
  private readonly log: ChaosEvent[] = [];
  private readonly listeners = new Set<(e: ChaosEvent) => void>();
  private nextRule = 1;

  addRule(input: FaultRuleInput): FaultRule {
    if (typeof input.action !== 'object' || input.action === null) throw new RuleValidationError('action', 'is required');
    if (typeof input.action.type !== 'string' || input.action.type === '') throw new RuleValidationError('action.type', 'must name an action');
    if (input.trigger !== undefined && !TRIGGERS.has(input.trigger.type)) throw new RuleValidationError('trigger.type', `unknown trigger '${input.trigger.type}'`);
    const id = input.id ?? `rule-${this.nextRule++}`;
    if (this.byId.has(id)) throw new RuleValidationError('id', `'${id}' is already in use`);
    const rule: FaultRule = { ...input, id, trigger: input.trigger ?? { type: 'always' }, createdAt: 0, matched: 0, fired: 0 };
    this.byId.set(id, rule);
    return rule;
  }

  removeRule(id: string): boolean {
    return this.byId.delete(id);
  }

  clearRules(): number {
    const n = this.byId.size;
    this.byId.clear();
    return n;
  }

  rules(): FaultRule[] {
    return [...this.byId.values()];
  }

  rule(id: string): FaultRule | undefined {
    return this.byId.get(id);
  }

  events(opts: { since?: number; limit?: number } = {}): ChaosEvent[] {
    return this.log.filter((e) => e.seq > (opts.since ?? 0)).slice(0, opts.limit ?? Infinity);
  }

  onEvent(listener: (event: ChaosEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  waitForFired(id: string, count = 1, timeoutMs = 5000): Promise<FaultRule> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const rule = this.byId.get(id);
        if (!rule) return finish(() => reject(new Error(`rule ${id} was removed`)));
        if (rule.fired >= count) finish(() => resolve(rule));
      };
      const finish = (f: () => void) => {
        off();
        clearTimeout(timer);
        f();
      };
      const off = this.onEvent(check);
      const timer = setTimeout(() => finish(() => reject(new Error(`rule ${id} did not fire ${count} time(s) in ${timeoutMs} ms`))), timeoutMs);
      check();
    });
  }

  /** Test helper: records an event and tells the listeners. */
  emit(event: Omit<ChaosEvent, 'seq' | 'time'>): ChaosEvent {
    const e: ChaosEvent = { seq: this.log.length + 1, time: Date.now(), ...event };
    this.log.push(e);
    for (const l of [...this.listeners]) l(e);
    return e;
  }

  /** Test helper: the rule matched a request and fired. */
  fire(id: string): ChaosEvent {
    const rule = this.byId.get(id)!;
    rule.matched++;
    rule.fired++;
    return this.emit({ kind: 'fault', ruleId: id, action: rule.action.type });
  }
}
