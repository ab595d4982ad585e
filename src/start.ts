// startCluster: the library's entry point. Builds the cluster model, starts
// one listener per node, creates the requested topics, starts the HTTP
// control API, and hands back the bootstrap string, the control URL and a
// stop function.
import { Cluster } from './broker/cluster.js';
import { createCoordinators } from './broker/cluster-coordinators.js';
import { systemClock } from './broker/clock.js';
import { brokerHandlers } from './broker/handlers/index.js';
import { HandlerRegistry } from './broker/handlers/registry.js';
import { kafkaVersionProfile } from './broker/kafka-version/profiles.js';
import { startLogger } from './silent-logger.js';
import { ListenError, resolveOptions, type KafkaesqueOptions } from './options.js';
import { KafkaServer } from './server/kafka-server.js';
import { SaslConfig } from './server/sasl/authenticator.js';
import { ProxiedPeers } from './server/proxied-peers.js';
import { resolveTls, tlsServing, type TlsInfo } from './server/tls.js';
import type { ListenerPolicy } from './server/node-listeners.js';
import type { ChaosController } from './chaos/api.js';
import { ChaosEngine } from './chaos/controller.js';
import { isInternalLeaderChange } from './chaos/events.js';
import { ChaosProxy } from './chaos/proxy.js';
import { randomSeed } from './chaos/random.js';
import { startControlServerFor, type ControlServer } from './control/server.js';
import { resetCluster } from './control/reset.js';
import { createCoordinatorTopics } from './broker/coordinators.js';
import { applyPreset } from './presets/apply.js';
import { attachProduceJournal } from './audit/produce-journal.js';
import { writeReport } from './report/report.js';
import type { Logger } from './logger.js';
import { resolvePreset } from './presets/load.js';
import type { Preset } from './presets/validate.js';
import type { ResetResult } from './control/types.js';
import { waitForCommitted, waitForGroup, waitForRecords, type CommittedProgress, type GroupProgress, type RecordsProgress, type WaitForGroupOptions, type WaitOptions } from './broker/waits.js';

export interface RunningCluster {
  /** Comma-separated host:port list of the live brokers, for client configs. */
  readonly bootstrap: string;
  /** host:port of every broker, by node id. */
  readonly brokers: ReadonlyMap<number, string>;
  /** The cluster model: topics, partitions, leader election, node stop/start. */
  readonly cluster: Cluster;
  readonly options: KafkaesqueOptions;
  /** Stops a broker: its connections reset, new ones are refused, its leaderships move. */
  stopNode(nodeId: number): Promise<void>;
  /** Starts a stopped broker on its old port; resolves once it accepts connections. */
  startNode(nodeId: number): Promise<void>;
  /** Base URL of the HTTP control API (docs/control-api.md), e.g. http://127.0.0.1:40123. */
  readonly controlUrl: string;
  /** Clears faults, starts stopped nodes, deletes every topic, group and transaction, then creates the start topics and applies the start presets again. */
  reset(): Promise<ResetResult>;
  /** Faults: rules, events, the run's seed (docs/chaos.md). Rules need the proxy (`proxy: true`, the default). */
  readonly chaos: ChaosController;
  /** Seed of this run's random generator: the same seed and traffic fire the same faults. */
  readonly seed: number;
  /**
   * The fault-free way in, for a test's own clients (an input producer, an
   * admin, a checking consumer): the side door's addresses, which answer with
   * side-door addresses only, so no rule sees that traffic. Without the proxy,
   * `bootstrap` itself (nothing there is faulted); null with `direct: false`.
   */
  readonly directBootstrap: string | null;
  /** host:port of every node's side door, by node id (the brokers' own without the proxy; empty with `direct: false`). */
  readonly directBrokers: ReadonlyMap<number, string>;
  /** Whether clients go through the chaos proxy (the addresses above are the proxy's). */
  readonly proxy: boolean;
  /** With `tls`, the PEM CA certificate clients trust and the server certificate presented, and what clients must present (docs/security.md); null without TLS. */
  readonly tls: TlsInfo | null;
  /** Resolves once the group is Stable (or `state`) and, with `lag`, its total lag is at most that (docs/library.md#waits-instead-of-sleeps). */
  waitForGroup(groupId: string, options?: WaitForGroupOptions): Promise<GroupProgress>;
  /** Resolves once the topic (or `partition`) holds at least `count` data records below the high watermark. */
  waitForRecords(topic: string, count: number, options?: WaitOptions & { partition?: number }): Promise<RecordsProgress>;
  /** Resolves once the group's committed offset of topic-partition is at least `offset`. */
  waitForCommitted(groupId: string, topic: string, partition: number, offset: number, options?: WaitOptions): Promise<CommittedProgress>;
  /** Ends every connection and listener. */
  stop(): Promise<void>;
}

/** The `report` option's file; a report that cannot be written is logged, and the stop goes on. */
function writeRunReport(path: string, running: RunningCluster, log: Logger): void {
  try {
    const bytes = writeReport(path, { cluster: running.cluster, chaos: running.chaos, seed: running.seed, bootstrap: running.bootstrap, proxy: running.proxy });
    log.info({ report: path, bytes }, `kafkaesque report written to ${path}`);
  } catch (err) {
    log.error({ err, report: path }, `kafkaesque report: cannot write ${path}: ${(err as Error).message}`);
  }
}

export async function startCluster(input: Partial<KafkaesqueOptions> = {}): Promise<RunningCluster> {
  if (input.upstream !== undefined) throw new RangeError('upstream: startCluster runs the in-memory cluster; put the proxy in front of another cluster with startProxy({ upstream }) (docs/upstream.md)');
  const options = resolveOptions(input);
  const log = await startLogger(options);
  const nodeIds = options.nodeIds ?? Array.from({ length: options.brokers }, (_, i) => i);
  const profile = kafkaVersionProfile(options.kafkaVersion)!;
  const cluster = new Cluster({
    nodeIds,
    kafkaVersion: profile,
    clusterId: options.clusterId,
    autoCreateTopics: options.autoCreateTopics,
    defaultPartitions: options.defaultPartitions,
    defaultReplicationFactor: options.defaultReplicationFactor ?? Math.min(3, options.brokers),
    minInsyncReplicas: options.minInsyncReplicas,
    replicationLagMs: options.replicationLagMs,
    producerIdExpirationMs: options.producerIdExpirationMs,
    producerIdExpirationCheckIntervalMs: options.producerIdExpirationCheckIntervalMs,
    transactionMaxTimeoutMs: options.transactionMaxTimeoutMs,
    authorizer: options.authorizer,
    clock: options.clock ?? systemClock,
    logger: log,
    coordinators: createCoordinators,
  });
  cluster.groups.config['group.initial.rebalance.delay.ms'] = options.groupInitialRebalanceDelayMs;
  const ports = new Map(nodeIds.map((id, i) => [id, options.ports?.[i] ?? (options.port ? options.port + i : 0)]));
  const seed = options.seed ?? randomSeed();
  const chaos = new ChaosEngine({ cluster, seed, log, proxyEnabled: options.proxy, eventsFile: options.eventsFile });
  // Which Produce stored which batch, and which answers faults lost: for the delivery audit.
  attachProduceJournal(cluster, chaos);
  const advertised = options.advertisedHost ?? options.host;
  const tls = options.tls ? await resolveTls(options.tls, [advertised, ...(['0.0.0.0', '::'].includes(options.host) ? [] : [options.host])]) : null;
  // What the listeners that clients reach enforce; the brokers behind the proxy only time idle connections out.
  const clientPolicy: Omit<ListenerPolicy, 'log'> = {
    tls: tls ? tlsServing(tls) : null,
    limits: { maxConnections: options.maxConnections, maxConnectionsPerIp: options.maxConnectionsPerIp },
    idleMs: options.connectionsMaxIdleMs,
    handshakeTimeoutMs: options.requestTimeoutMs,
  };
  const registry = new HandlerRegistry(brokerHandlers, profile);
  // Behind the proxy, the brokers learn from it who each client is (mTLS principal, address), for the authorizer.
  const peers = new ProxiedPeers();
  const sasl = options.sasl ? new SaslConfig(options.sasl, cluster.scramCredentials) : null;
  const fetchLimits = { maxBytes: options.fetchMaxBytes, maxRecords: options.maxRecordsPerFetch ?? Infinity };
  // With the proxy on, the proxy takes the configured ports and the brokers sit behind it on free loopback ports.
  const server = new KafkaServer({
    cluster,
    registry,
    bindHost: options.proxy ? '127.0.0.1' : options.host,
    ports: options.proxy ? new Map(nodeIds.map((id) => [id, 0])) : ports,
    advertisedHost: options.proxy ? '127.0.0.1' : (options.advertisedHost ?? options.host),
    maxRequestSize: options.maxRequestSize,
    log,
    sasl,
    // Behind the proxy, frames are bounded where clients send them: a throttle
    // or slice fault that paces a request to the broker must not look like a slow client.
    requestTimeoutMs: options.proxy ? 0 : options.requestTimeoutMs,
    authTimeoutMs: options.requestTimeoutMs,
    fetchLimits,
    policy: options.proxy ? { idleMs: options.connectionsMaxIdleMs } : clientPolicy,
    peers,
  });
  const listenOption = options.ports ? 'ports' : 'port';
  try {
    await server.start();
  } catch (err) {
    chaos.close();
    // Behind the proxy the brokers take free loopback ports; without it, the configured ones.
    throw options.proxy ? err : new ListenError(listenOption, err as Error);
  }
  const proxy = options.proxy
    ? new ChaosProxy({
        cluster,
        engine: chaos,
        bindHost: options.host,
        ports,
        advertisedHost: options.advertisedHost ?? options.host,
        upstream: (id) => ({ host: '127.0.0.1', port: server.listeners.get(id)!.port }),
        maxRequestSize: options.maxRequestSize,
        log,
        requestTimeoutMs: options.requestTimeoutMs,
        policy: clientPolicy,
        peers,
      })
    : undefined;
  // The side door: what the clients of the proxy get (TLS, SASL, quotas), since
  // it serves the same test's own clients, on free ports, with no proxy in front.
  const direct =
    options.proxy && options.direct
      ? new KafkaServer({
          cluster,
          registry,
          bindHost: options.host,
          ports: new Map(nodeIds.map((id) => [id, 0])),
          advertisedHost: advertised,
          advertise: 'own',
          label: 'side door for node',
          maxRequestSize: options.maxRequestSize,
          log,
          sasl,
          requestTimeoutMs: options.requestTimeoutMs,
          authTimeoutMs: options.requestTimeoutMs,
          fetchLimits,
          policy: clientPolicy,
        })
      : undefined;
  try {
    await proxy?.start();
    await direct?.start();
  } catch (err) {
    await direct?.stop();
    await proxy?.stop();
    await server.stop();
    chaos.close();
    throw new ListenError(listenOption, err as Error);
  }
  if (!options.coldStart) createCoordinatorTopics(cluster);
  for (const t of options.topics) {
    const r = cluster.createTopic(t.name, { numPartitions: t.partitions, replicationFactor: t.replicationFactor, configs: t.configs });
    if (!r.ok) {
      await direct?.stop();
      await proxy?.stop();
      await server.stop();
      chaos.close();
      throw new Error(`cannot create topic ${t.name}: ${r.error}: ${r.message}`);
    }
  }
  let startPresets: Preset[];
  try {
    // Loaded before anything is added, so that a bad file adds nothing; kept for reset.
    startPresets = options.presets.map((p) => resolvePreset(p));
    for (const p of startPresets) applyPreset(chaos, p);
  } catch (err) {
    await direct?.stop();
    await proxy?.stop();
    await server.stop();
    chaos.close();
    throw err;
  }
  const address = (id: number) => `${cluster.nodes.get(id)!.host}:${cluster.nodes.get(id)!.port}`;
  const sideDoor = (listeners: KafkaServer, id: number) => {
    const at = listeners.endpoint(id)!;
    return `${at.host}:${at.port}`;
  };
  // What ran, for the shutdown line.
  const startedAt = performance.now();
  const ran = { faultsFired: 0, clusterChanges: 0 };
  chaos.onEvent((e) => void (e.kind === 'fault' ? ran.faultsFired++ : isInternalLeaderChange(e) ? 0 : ran.clusterChanges++));
  let control: ControlServer | undefined;
  const running: RunningCluster = {
    get bootstrap() {
      return cluster.liveNodes().map((n) => `${n.host}:${n.port}`).join(',');
    },
    brokers: new Map(nodeIds.map((id) => [id, address(id)])),
    // Without the proxy the brokers themselves are the fault-free way in.
    directBrokers: new Map(nodeIds.flatMap((id) => (direct ? [[id, sideDoor(direct, id)]] : options.proxy ? [] : [[id, address(id)]]))),
    get directBootstrap() {
      if (direct) return direct.bootstrap();
      return options.proxy ? null : running.bootstrap;
    },
    cluster,
    options,
    chaos,
    seed,
    proxy: options.proxy,
    tls: tls && { ca: tls.ca, cert: tls.cert, clientAuth: tls.clientAuth, client: tls.client },
    stopNode: async (id) => {
      const r = cluster.stopNode(id);
      if (!r.ok) throw new Error(r.message);
    },
    startNode: async (id) => {
      const r = cluster.startNode(id);
      if (!r.ok) throw new Error(r.message);
      await server.listening(id);
      await proxy?.listening(id);
      await direct?.listening(id);
    },
    get controlUrl() {
      return control?.url ?? '';
    },
    reset: () => resetCluster(running, options.topics, startPresets, { coldStart: options.coldStart }),
    waitForGroup: (groupId, o) => waitForGroup(cluster, groupId, o),
    waitForRecords: (topic, count, o) => waitForRecords(cluster, topic, count, o),
    waitForCommitted: (groupId, topic, partition, offset, o) => waitForCommitted(cluster, groupId, topic, partition, offset, o),
    stop: async () => {
      // Before anything stops, so that it shows the cluster as the run left it.
      if (options.report !== undefined) writeRunReport(options.report, running, log);
      await control?.close();
      await direct?.stop();
      await proxy?.stop();
      await server.stop();
      chaos.close();
      cluster.shutdown();
      const topics = [...cluster.topics.keys()].filter((name) => !name.startsWith('__')).length;
      const uptimeMs = Math.round(performance.now() - startedAt);
      log.info(
        { uptimeMs, brokers: nodeIds.length, topics, ...ran, seed },
        `kafkaesque stopped after ${(uptimeMs / 1000).toFixed(1)} s: ${nodeIds.length} broker(s), ${topics} topic(s), ${ran.faultsFired} fault(s) fired, ${ran.clusterChanges} cluster change(s); seed ${seed}`,
      );
    },
  };
  // Every listener, the control API's too, is bound before the cluster says it is ready.
  try {
    control = await startControlServerFor(running, options, log);
  } catch (err) {
    await running.stop();
    throw new ListenError('controlPort', err as Error);
  }
  log.info({ brokers: nodeIds.map(address), kafkaVersion: profile.name, proxy: options.proxy, direct: direct?.bootstrap(), seed, controlUrl: control.url }, 'kafkaesque cluster ready');
  return running;
}
