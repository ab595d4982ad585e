// The action registry: every action module, by its `type`. A new action is
// one file in this folder and one line here.
import { RuleValidationError, type RuleAction } from '../api.js';
import { describe, fail, record } from '../validate.js';
import type { ChaosAction } from './action.js';
import blackhole from './blackhole.js';
import close from './close.js';
import corrupt from './corrupt.js';
import delay from './delay.js';
import dropResponse from './drop-response.js';
import duplicateFetch from './duplicate-fetch.js';
import error from './error.js';
import expireProducer from './expire-producer.js';
import expireShareLocks from './expire-share-locks.js';
import fence from './fence.js';
import metadataLag from './metadata-lag.js';
import minInsyncReplicas from './min-insync-replicas.js';
import moveLeader from './move-leader.js';
import pauseReplication from './pause-replication.js';
import rebalance from './rebalance.js';
import replicationLag from './replication-lag.js';
import rewind from './rewind.js';
import shrinkIsr from './shrink-isr.js';
import slice from './slice.js';
import startNode from './start-node.js';
import stopNode from './stop-node.js';
import throttle from './throttle.js';

export type { ChaosAction, ActionContext, ActionResult, FrameOutcome, Outcome } from './action.js';

const registry = new Map<string, ChaosAction<any>>();

export function registerAction(action: ChaosAction<any>): void {
  if (registry.has(action.type)) throw new Error(`chaos action '${action.type}' is registered twice`);
  registry.set(action.type, action);
}

for (const a of [dropResponse, delay, error, close, moveLeader, stopNode, startNode, fence, expireProducer, rewind, rebalance, corrupt, duplicateFetch, throttle, slice, blackhole, replicationLag, pauseReplication, shrinkIsr, minInsyncReplicas, metadataLag, expireShareLocks]) registerAction(a);

export const chaosActions: ReadonlyMap<string, ChaosAction<any>> = registry;

export interface ParsedAction {
  module: ChaosAction<any>;
  params: object;
}

/** Finds the action module and lets it check its parameters. */
export function parseAction(raw: unknown, env: { nodeIds: readonly number[] }): ParsedAction {
  if (raw === undefined) throw new RuleValidationError('action', 'is required');
  const type = (raw as RuleAction | null)?.type;
  const module = typeof type === 'string' ? registry.get(type) : undefined;
  if (!module) {
    if (typeof raw !== 'object' || raw === null) fail('action', `must be an object with a type, got ${describe(raw)}`);
    fail('action.type', `must be one of ${[...registry.keys()].map((t) => `'${t}'`).join(', ')}, got ${describe(type)}`);
  }
  const checked = record(raw, 'action', ['type', ...module.params]) as RuleAction;
  return { module, params: module.parse(checked, env) };
}
