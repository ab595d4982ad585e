// The chaos layer's public surface: the shared rule and event types, the
// controller, the proxy, the action registry and the seeded generator.
export * from './api.js';
export { ChaosEngine, type ChaosEngineOptions, type Decision } from './controller.js';
export { ChaosProxy, type ChaosProxyOptions } from './proxy.js';
export { chaosActions, parseAction, registerAction } from './actions/index.js';
export type { ChaosAction, ActionContext, ActionResult, FrameOutcome, Outcome } from './actions/action.js';
export { SeededRandom, randomSeed } from './random.js';
export { DEFAULT_EVENT_CAPACITY } from './events.js';
