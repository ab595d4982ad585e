// What the control API drives: the cluster model, the node lifecycle (which
// needs the listeners, so it is not a model method), the fault controller,
// and reset. RunningCluster satisfies it; tests may build one
// around a cluster and a stand-in controller. In upstream mode
// (RunningProxy) there is no cluster model, only the proxy's view of the
// upstream.
import type { Cluster } from '../broker/cluster.js';
import type { ChaosController } from '../chaos/api.js';
import type { NodeView, ResetResult } from './types.js';

/** Upstream mode: what the proxy knows of the cluster it fronts. */
export interface UpstreamTarget {
  /** The upstream's bootstrap, as given. */
  readonly bootstrap: string;
  /** From the last Metadata answer that went through ('' / -1 before one). */
  readonly clusterId: string;
  readonly controllerId: number;
  /** A proxy listener per upstream broker seen so far. */
  nodes(): NodeView[];
}

export interface ControlTarget {
  /** The cluster model; absent in upstream mode, where the routes that need it answer 409 upstream_mode. */
  readonly cluster?: Cluster;
  /** Set in upstream mode. */
  readonly upstream?: UpstreamTarget;
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
