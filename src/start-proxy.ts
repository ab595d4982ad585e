// startProxy: upstream mode's entry point (docs/upstream.md), the composition
// root beside startCluster (./start.ts). The chaos
// proxy in front of a Kafka cluster kafkaesque did not start, with the same
// fault controller, presets and control API as startCluster, and no cluster
// model: actions and control routes that need one are refused.
import { systemClock } from './broker/clock.js';
import { startLogger } from './silent-logger.js';
import { resolveTls, tlsServing, type TlsInfo } from './server/tls.js';
import { ListenError, resolveOptions, type KafkaesqueOptions } from './options.js';
import { OptionsError, checkOptions } from './options-schema.js';
import { applyPreset } from './presets/apply.js';
import { resolvePreset } from './presets/load.js';
import type { Preset } from './presets/validate.js';
import { startControlServerFor, type ControlServer } from './control/server.js';
import { HttpError } from './control/errors.js';
import type { ControlTarget, UpstreamTarget } from './control/target.js';
import type { ResetResult } from './control/types.js';
import type { ChaosController } from './chaos/api.js';
import { ChaosEngine } from './chaos/controller.js';
import { randomSeed } from './chaos/random.js';
import { UpstreamProxy, parseBootstrap } from './chaos/upstream.js';

/** The options startProxy reads; `upstream` is required. */
export type ProxyOptions = Partial<KafkaesqueOptions> & { upstream: string };

export interface RunningProxy extends ControlTarget {
  /** Comma-separated host:port of the proxy's bootstrap listeners, one per upstream bootstrap address. */
  readonly bootstrap: string;
  /** The proxy listener (host:port) of every upstream broker seen so far, by node id. */
  readonly brokers: ReadonlyMap<number, string>;
  /** What the proxy knows of the cluster it fronts: its bootstrap as given, cluster id, the brokers seen. */
  readonly upstream: UpstreamTarget;
  readonly options: KafkaesqueOptions;
  /** Base URL of the HTTP control API. */
  readonly controlUrl: string;
  /** Faults: rules, events, the run's seed. Actions that need the in-memory cluster are refused. */
  readonly chaos: ChaosController;
  readonly seed: number;
  /** With `tls`, the PEM CA certificate clients trust and the certificate the proxy presents, and what clients must present; null without TLS. The proxy talks plaintext to the upstream. */
  readonly tls: TlsInfo | null;
  /** Always true: upstream mode is the proxy. */
  readonly proxy: true;
  /** Clears the fault rules and applies the start presets again (the upstream's data is not kafkaesque's to reset). */
  reset(): Promise<ResetResult>;
  /** Ends every proxied connection and listener; the upstream is left as it is. */
  stop(): Promise<void>;
}

/** Options that only mean something for the in-memory cluster: refused rather than silently ignored. */
function refuseModelOptions(input: ProxyOptions): void {
  const refuse = (field: keyof ProxyOptions, why: string) => {
    throw new OptionsError('startProxy', field, input[field], `not available in upstream mode; ${why}`);
  };
  if (input.proxy === false) refuse('proxy', 'upstream mode is the proxy');
  if (input.authorizer) refuse('authorizer', "ACLs are the upstream's: its own authorizer decides");
  if (input.topics?.length) refuse('topics', "create topics on the upstream cluster (or let its auto-creation make them)");
  if (input.sasl) refuse('sasl', "SASL is the upstream's: clients authenticate through the proxy to it");
  if (input.report !== undefined) refuse('report', 'the report shows the in-memory cluster and its audits; keep the events with eventsFile');
  if (input.kafkaVersion !== undefined) refuse('kafkaVersion', 'the upstream cluster answers as its own Kafka version');
  if (input.ports) refuse('ports', 'give port: the bootstrap listeners take port, port+1, …, then each upstream broker the next one as it is seen');
}

/** Starts the chaos proxy in front of `upstream` ("host:port[,host:port…]") and its control API. */
export async function startProxy(input: ProxyOptions): Promise<RunningProxy> {
  // Keys, types and bounds first (the one schema, src/options-schema.ts), then what upstream mode cannot do.
  checkOptions(input, 'startProxy');
  if (typeof input.upstream !== 'string') throw new OptionsError('startProxy', 'upstream', input.upstream, 'required: give the bootstrap of the cluster to front, "host:port[,host:port…]"');
  const targets = parseBootstrap(input.upstream);
  refuseModelOptions(input);
  const { upstream: _upstream, ...rest } = input;
  const options = resolveOptions(rest, 'startProxy');
  const log = await startLogger(options);
  const seed = options.seed ?? randomSeed();
  const chaos = new ChaosEngine({ clock: options.clock ?? systemClock, seed, log, eventsFile: options.eventsFile });
  const advertised = options.advertisedHost ?? options.host;
  const tls = options.tls ? await resolveTls(options.tls, [advertised, ...(['0.0.0.0', '::'].includes(options.host) ? [] : [options.host])]) : null;
  const proxy = new UpstreamProxy({
    bootstrap: targets,
    engine: chaos,
    bindHost: options.host,
    advertisedHost: advertised,
    port: options.port,
    maxRequestSize: options.maxRequestSize,
    requestTimeoutMs: options.requestTimeoutMs,
    // The same guards as the proxy in front of the in-memory cluster.
    policy: {
      tls: tls ? tlsServing(tls) : null,
      limits: { maxConnections: options.maxConnections, maxConnectionsPerIp: options.maxConnectionsPerIp },
      idleMs: options.connectionsMaxIdleMs,
      handshakeTimeoutMs: options.requestTimeoutMs || undefined,
    },
    log,
  });
  let startPresets: Preset[];
  try {
    try {
      await proxy.start();
    } catch (err) {
      throw new ListenError('port', err as Error);
    }
    // Loaded before anything is added, so that a bad file adds nothing; a rule that needs the cluster model refuses the whole preset. Kept for reset.
    startPresets = options.presets.map((p) => resolvePreset(p));
    for (const p of startPresets) applyPreset(chaos, p);
  } catch (err) {
    await proxy.stop();
    chaos.close();
    throw err;
  }
  const upstreamBootstrap = targets.map((t) => `${t.host}:${t.port}`).join(',');
  const upstreamTarget: UpstreamTarget = {
    bootstrap: upstreamBootstrap,
    get clusterId() {
      return proxy.clusterId ?? '';
    },
    get controllerId() {
      return proxy.controllerId;
    },
    nodes: () =>
      [...proxy.nodes.values()]
        .filter((n) => n.listening)
        .sort((a, b) => (a.nodeId < 0 && b.nodeId < 0 ? b.nodeId - a.nodeId : a.nodeId - b.nodeId))
        .map((n) => ({ nodeId: n.nodeId, host: options.advertisedHost ?? options.host, port: n.listener.port, rack: null, alive: true, upstream: `${n.target.host}:${n.target.port}` })),
  };
  const refused = (what: string) => Promise.reject(new HttpError(409, 'upstream_mode', `${what}: not available in upstream mode (kafkaesque does not run the cluster behind the proxy)`));
  const startedAt = performance.now();
  let faultsFired = 0;
  chaos.onEvent((e) => void (e.kind === 'fault' && faultsFired++));
  let control: ControlServer | undefined;
  const running: RunningProxy = {
    get bootstrap() {
      return proxy.bootstrap;
    },
    get brokers() {
      return new Map([...proxy.brokers()].map(([id, n]) => [id, `${options.advertisedHost ?? options.host}:${n.listener.port}`]));
    },
    upstream: upstreamTarget,
    options,
    chaos,
    seed,
    tls: tls && { ca: tls.ca, cert: tls.cert, clientAuth: tls.clientAuth, client: tls.client },
    proxy: true,
    get controlUrl() {
      return control?.url ?? '';
    },
    stopNode: (id) => refused(`stop node ${id}`),
    startNode: (id) => refused(`start node ${id}`),
    reset: async () => {
      const rulesCleared = chaos.clearRules();
      const presetsApplied = startPresets.map((p) => (applyPreset(chaos, p), p.name));
      log.info({ rulesCleared, presetsApplied }, 'proxy reset (upstream mode): faults cleared, start presets applied again');
      return { rulesCleared, nodesStarted: [], topicsDeleted: [], groupsDeleted: 0, transactionsDeleted: 0, topicsCreated: [], presetsApplied };
    },
    stop: async () => {
      await control?.close();
      await proxy.stop();
      chaos.close();
      const uptimeMs = Math.round(performance.now() - startedAt);
      log.info({ uptimeMs, upstream: upstreamBootstrap, faultsFired, seed }, `kafkaesque stopped after ${(uptimeMs / 1000).toFixed(1)} s (upstream mode, in front of ${upstreamBootstrap}): ${faultsFired} fault(s) fired; seed ${seed}`);
    },
  };
  // The control API is bound too before the proxy says it is ready.
  try {
    control = await startControlServerFor(running, options, log);
  } catch (err) {
    await running.stop();
    throw new ListenError('controlPort', err as Error);
  }
  log.info({ bootstrap: proxy.bootstrap, upstream: upstreamBootstrap, seed, controlUrl: control.url }, 'kafkaesque proxy ready (upstream mode)');
  return running;
}
