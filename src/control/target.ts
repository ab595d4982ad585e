// What the control API drives: the cluster model, the node lifecycle (which
// needs the listeners, so it is not a model method), the fault controller,
// and reset. RunningCluster satisfies it; tests may build one
// around a cluster and a stand-in controller.
import type { Cluster } from '../broker/cluster.js';
import type { ChaosController } from '../chaos/api.js';
import type { ResetResult } from './types.js';

export interface ControlTarget {
  readonly cluster: Cluster;
  /** The fault controller: rules and events. Absent: fault and event routes answer 503. */
  readonly chaos?: ChaosController;
  /** False when the cluster runs without its proxy: no rule can fire, so the fault routes answer 503 (events still work). Default: on. */
  readonly proxy?: boolean;
  /** Comma-separated host:port of the live brokers, as clients should use them. */
  readonly bootstrap: string;
  stopNode(nodeId: number): Promise<void>;
  startNode(nodeId: number): Promise<void>;
  /** Clears faults, then data (see reset.ts). */
  reset(): Promise<ResetResult>;
}
