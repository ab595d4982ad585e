// The one interface every chaos action implements (STYLE.md 7-9). An action
// is a module registered by its `type`: it checks its own parameters and
// fills their defaults when a rule is added, and when the rule fires it
// returns what happens to the request and to its response as a VALUE. Only
// the proxy core touches sockets, so every action is unit-testable without
// one. Cluster actions call the cluster model and then let the frame pass.
//
// Protocol faults act on whole frames. Byte faults fit the same shape: a
// per-frame one (slice this answer into n-byte pieces, pace it at b bytes/s)
// is a `pace` on a forward outcome that the core applies when it writes that
// frame's bytes; a limit on a connection's byte stream (throttle it to b
// bytes/s until the rule goes) is a `limits` entry on the result; cutting a
// connection off (blackhole) is an outcome of its own that the core keeps
// until the rule goes. None needs sockets here.
import type { Cluster } from '../../broker/cluster.js';
import type { RuleAction } from '../api.js';
import type { SeededRandom } from '../random.js';
import type { FrameRewrite } from '../rewrite.js';
import type { ProxiedRequest } from '../request.js';

/**
 * What becomes of one frame: the verbs of STYLE.md 9, each optionally
 * delayed. On the request path `forward` sends it to the broker; on the
 * response path it delivers the broker's answer to the client.
 */
/**
 * How the bytes of one frame are written (byte faults): in pieces of `bytes`,
 * `everyMs` apart on the cluster clock. A frame being written holds back the
 * later ones on its connection; removing the rule writes the rest at once.
 */
export interface Pace {
  bytes: number;
  everyMs: number;
}

export type FrameOutcome =
  /**
   * Let it through; `rewrite` changes its bytes on the way (./rewrite.ts);
   * `pace` writes them in timed pieces. Either turns off cut-through for an answer.
   */
  | { kind: 'forward'; delayMs?: number; rewrite?: FrameRewrite[]; pace?: Pace }
  /** Answer with this response body (the broker never sees the request, or its answer is replaced). */
  | { kind: 'respond'; body: Record<string, unknown>; delayMs?: number }
  /** Answer with this Kafka error code, placed where the API carries it. */
  | { kind: 'error'; errorCode: number; delayMs?: number }
  /** Swallow the frame; the connection stays open and nothing answers it. */
  | { kind: 'drop'; delayMs?: number }
  /** Reset the connection instead. */
  | { kind: 'close'; delayMs?: number }
  /**
   * Request only: swallow it, and from now on the connection is cut off both
   * ways (nothing read, nothing written) until the rule is removed; then it
   * is reset, as a healed network partition would not resurrect TCP state.
   */
  | { kind: 'blackhole'; delayMs?: number };

export interface Outcome {
  request: FrameOutcome;
  /** What becomes of the broker's answer, when the request was forwarded. Default: forward. */
  response?: FrameOutcome;
}

export const FORWARD: Outcome = Object.freeze({ request: Object.freeze({ kind: 'forward' as const }) });

export interface ActionContext {
  readonly request: ProxiedRequest;
  readonly cluster: Cluster;
  /** The firing rule's own stream of the run's seeded generator. */
  readonly random: SeededRandom;
}

/**
 * A limit on one direction of the byte stream of the connection a request
 * came on (throttle with scope 'connection'): from when the rule fires until
 * it is removed, every byte that way (whole frames, cut-through answers,
 * paced pieces) leaves no faster than bytesPerSecond (../stream-throttle.ts).
 * 'request' is client to broker, 'response' broker to client.
 */
export interface StreamLimit {
  direction: 'request' | 'response';
  bytesPerSecond: number;
}

export interface ActionResult {
  outcome: Outcome;
  /** Limits on the connection's byte stream that last until the rule goes; a connection takes each rule's once. */
  limits?: StreamLimit[];
  /** What the action did, for the event (`{ code: 'NOT_LEADER_OR_FOLLOWER' }`, `{ ms: 120 }`). */
  detail?: Record<string, unknown>;
}

export interface ChaosAction<P extends object = object> {
  readonly type: string;
  /**
   * 'frame': every action fires on a request. Byte faults act on the chunks
   * a frame is written in, through a `pace` on its outcome (throttle and
   * slice per frame), or on the connection's byte stream below the framing,
   * through `limits` on the result (throttle per connection).
   */
  readonly layer: 'frame';
  /** One line for docs and CLI help. */
  readonly summary: string;
  /** The parameter names it accepts (besides `type`). */
  readonly params: readonly string[];
  /** Does the action need the decoded request (to build an error response, say)? */
  readonly needsBody?: boolean;
  /**
   * Does it act on kafkaesque's in-memory cluster (ctx.cluster)? Such rules
   * are refused in upstream mode (../upstream.ts), where there is none.
   */
  readonly needsCluster?: boolean;
  /**
   * Checks the parameters and fills defaults. Throws RuleValidationError
   * naming the field as `action.<param>`. `nodeIds` are the cluster's nodes.
   */
  parse(raw: RuleAction, env: { nodeIds: readonly number[] }): P;
  /**
   * Whether the action can act on this request as Kafka would (error: only
   * codes a broker could answer it, ../kafka-answers.ts). A request it
   * cannot is not counted by the rule's trigger, as if it did not match.
   */
  appliesTo?(params: P, request: ProxiedRequest): boolean;
  /** Runs when the rule fires for a request. */
  fire(params: P, ctx: ActionContext): ActionResult;
}

/** Declares an action with its parameter type inferred from `parse`. */
export function defineAction<P extends object>(action: ChaosAction<P>): ChaosAction<P> {
  return action;
}
