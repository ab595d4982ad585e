// `kafkaesque start`: runs the cluster in the foreground until SIGINT or
// SIGTERM. With --json, one JSON line on stdout says it is ready.
import type { CommandModule } from 'yargs';
import { startCluster, type RunningCluster } from '../start.js';
import { startProxy, type RunningProxy } from '../start-proxy.js';
import { ListenError, defaultOptions, type KafkaesqueOptions, type TopicSpec } from '../options.js';
import { OptionsError, type OptionKey } from '../options-schema.js';
import { EXIT_FAILED, EXIT_USAGE, UsageError, describeFailure } from './common.js';
import { optionFlag, optionListFlag, optionTextFlag } from './flags.js';
import { CLIENT_AUTH_VALUES, type ClientAuth } from '../server/tls.js';
import { SASL_MECHANISMS, type SaslMechanism, type SaslOptions } from '../server/sasl/authenticator.js';
import type { AclSpec, AuthorizerOptions } from '../broker/acl/authorizer.js';
import { tlsOptionsFromFlags, writeTlsFiles, type TlsFiles } from './tls-files.js';
import { prettyByDefault } from '../logger.js';
import { DEFAULT_KAFKA_VERSION, KAFKA_VERSIONS } from '../broker/kafka-version/profiles.js';

interface StartArgs {
  brokers: number;
  port: number;
  ports?: number[];
  host: string;
  'advertised-host'?: string;
  'node-ids'?: number[];
  topic: string[];
  preset: string[];
  partitions: number;
  'replication-factor'?: number;
  'auto-create-topics': boolean;
  'kafka-version'?: string;
  'cold-start': boolean;
  'min-insync-replicas': number;
  'replication-lag-ms': number;
  'producer-id-expiration-ms': number;
  'producer-id-expiration-check-interval-ms': number;
  'sasl-user': string[];
  'sasl-mechanism'?: SaslMechanism[];
  'sasl-oauthbearer-required-scope': string[];
  authorizer: boolean;
  'super-user': string[];
  'allow-everyone-if-no-acl-found': boolean;
  acl: string[];
  'transaction-max-timeout-ms': number;
  'group-initial-rebalance-delay-ms': number;
  'max-request-size': number;
  tls: boolean;
  'tls-cert'?: string;
  'tls-key'?: string;
  'tls-ca'?: string;
  'tls-ca-out'?: string;
  'tls-client-auth'?: ClientAuth;
  'tls-client-ca'?: string;
  'tls-client-cert-out'?: string;
  'tls-client-key-out'?: string;
  'max-connections'?: number;
  'max-connections-per-ip'?: number;
  'connections-max-idle-ms': number;
  'request-timeout-ms': number;
  'fetch-max-bytes': number;
  'max-records-per-fetch'?: number;
  'control-port': number;
  'control-host': string;
  'control-token'?: string;
  'control-allow-remote': boolean;
  'control-allowed-host'?: string[];
  proxy: boolean;
  direct: boolean;
  upstream?: string;
  seed?: number;
  'events-file'?: string;
  report?: string;
  json: boolean;
  'log-level': string;
  'pretty-logs'?: boolean;
}

/** "orders", "orders:6" or "orders:6:3" */
export function parseTopic(spec: string): TopicSpec {
  const [name, partitions, rf] = spec.split(':');
  const n = (v: string | undefined, what: string) => {
    if (v === undefined || v === '') return undefined;
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--topic ${spec}: ${what} must be a whole number >= 1`);
    return Number(v);
  };
  if (!name) throw new UsageError(`--topic ${spec}: the topic needs a name`);
  return { name, partitions: n(partitions, 'partitions'), replicationFactor: n(rf, 'replication factor') };
}

/** "name:password" pairs; the password may contain ':'. */
export function parseSaslUsers(specs: string[]): Record<string, string> {
  const users: Record<string, string> = {};
  for (const spec of specs) {
    const at = spec.indexOf(':');
    if (at <= 0) throw new UsageError(`--sasl-user ${spec}: expected name:password`);
    users[spec.slice(0, at)] = spec.slice(at + 1);
  }
  return users;
}

const ACL_FORM = 'principal,OPERATION,RESOURCE_TYPE:name[,PREFIXED][,DENY][,host=ADDRESS]';

/** `--acl User:alice,READ,TOPIC:orders,PREFIXED`: one ACL; the library's authorizer.acls checks the words. */
export function parseAcl(spec: string): AclSpec {
  const [principal, operation, resource, ...rest] = spec.split(',');
  const colon = resource?.indexOf(':') ?? -1;
  if (!principal || !operation || !resource || colon <= 0) throw new UsageError(`--acl ${spec}: expected ${ACL_FORM}`);
  const acl: AclSpec = { principal, operation: operation as AclSpec['operation'], resourceType: resource.slice(0, colon) as AclSpec['resourceType'], resourceName: resource.slice(colon + 1) };
  for (const word of rest) {
    if (word === 'PREFIXED' || word === 'LITERAL') acl.patternType = word;
    else if (word === 'DENY' || word === 'ALLOW') acl.permissionType = word;
    else if (word.startsWith('host=')) acl.host = word.slice(5);
    else throw new UsageError(`--acl ${spec}: unknown part ${word}; expected ${ACL_FORM}`);
  }
  return acl;
}

/** The authorizer the flags ask for: any of them turns it on (Kafka's authorizer.class.name). */
function authorizerFrom(args: StartArgs): AuthorizerOptions | undefined {
  const on = args.authorizer || args['super-user'].length > 0 || args.acl.length > 0 || args['allow-everyone-if-no-acl-found'];
  if (!on) return undefined;
  return { superUsers: args['super-user'], allowEveryoneIfNoAclFound: args['allow-everyone-if-no-acl-found'], acls: args.acl.map(parseAcl) };
}

export const startCommand: CommandModule<object, StartArgs> = {
  command: 'start',
  describe: 'Start an in-memory Kafka cluster and serve it until interrupted',
  builder: (y) =>
    y
      .option('brokers', optionFlag('brokers', 'brokers', 'Number of broker nodes', { default: 3 }))
      .option('port', optionFlag('port', 'port', 'Port of the first broker; the others take the next ports (0 = free ports)', { default: 9092 }))
      .option('ports', optionListFlag('ports', 'ports', 'A port per broker, comma-separated (overrides --port)'))
      .option('host', { type: 'string', requiresArg: true, default: defaultOptions.host, describe: 'Address to listen on' })
      .option('advertised-host', { type: 'string', requiresArg: true, describe: 'Host name that Metadata advertises (default: --host)' })
      .option('node-ids', optionListFlag('nodeIds', 'node-ids', 'Node ids, comma-separated, distinct, one per broker (default 0..brokers-1)'))
      .option('topic', { type: 'string', requiresArg: true, array: true, default: [], describe: 'Create a topic at start: name[:partitions[:replication]] (repeatable)' })
      .option('preset', { type: 'string', requiresArg: true, array: true, default: [], describe: 'Apply a preset at start: a built-in name (kafkaesque preset list) or a file path (repeatable)' })
      .option('partitions', optionFlag('defaultPartitions', 'partitions', 'num.partitions for auto-created topics', { default: defaultOptions.defaultPartitions }))
      .option('replication-factor', optionFlag('defaultReplicationFactor', 'replication-factor', 'default.replication.factor (default: min(3, brokers))'))
      .option('auto-create-topics', { type: 'boolean', default: true, describe: 'auto.create.topics.enable' })
      .option('kafka-version', optionTextFlag('kafkaVersion', 'kafka-version', `Kafka version the brokers behave as: ${KAFKA_VERSIONS.join(', ')} or a patch release of one (default ${DEFAULT_KAFKA_VERSION}; docs/protocol.md#kafka-versions)`))
      .option('cold-start', { type: 'boolean', default: false, describe: 'start as a new cluster: no __consumer_offsets or __transaction_state until the first FindCoordinator creates them (COORDINATOR_NOT_AVAILABLE meanwhile)' })
      .option('min-insync-replicas', optionFlag('minInsyncReplicas', 'min-insync-replicas', 'Broker-level min.insync.replicas', { default: defaultOptions.minInsyncReplicas }))
      .option('replication-lag-ms', optionFlag('replicationLagMs', 'replication-lag-ms', 'How long followers lag behind leaders', { default: 0 }))
      .option(
        'group-initial-rebalance-delay-ms',
        optionFlag('groupInitialRebalanceDelayMs', 'group-initial-rebalance-delay-ms', 'group.initial.rebalance.delay.ms: how long a new group waits for more members before its first rebalance (Kafka: 3000)', {
          default: defaultOptions.groupInitialRebalanceDelayMs,
        }),
      )
      .option('max-request-size', optionFlag('maxRequestSize', 'max-request-size', 'Largest request accepted, in bytes', { default: defaultOptions.maxRequestSize }))
      .option('tls', { type: 'boolean', default: false, describe: 'TLS listeners (SSL; SASL_SSL with --sasl-user) with a certificate generated at start; its CA goes to --tls-ca-out (docs/security.md)' })
      .option('tls-cert', { type: 'string', requiresArg: true, describe: 'PEM certificate to serve instead of a generated one (implies --tls; needs --tls-key)' })
      .option('tls-key', { type: 'string', requiresArg: true, describe: 'PEM private key of --tls-cert' })
      .option('tls-ca', { type: 'string', requiresArg: true, describe: 'PEM CA that signed --tls-cert, written to --tls-ca-out (default: --tls-cert itself)' })
      .option('tls-ca-out', { type: 'string', requiresArg: true, describe: 'Write the CA clients should trust to this file (default: a new file in the temp dir; the path is printed when ready)' })
      .option('tls-client-auth', {
        type: 'string',
        choices: CLIENT_AUTH_VALUES,
        describe: 'ssl.client.auth: clients present certificates (mTLS); required refuses a client without one (implies --tls; docs/security.md)',
      })
      .option('tls-client-ca', { type: 'string', requiresArg: true, describe: 'PEM CA client certificates must chain to (default: the generated CA, or --tls-ca)' })
      .option('tls-client-cert-out', { type: 'string', requiresArg: true, describe: 'With a generated CA and --tls-client-auth: write a client certificate it signed here (default: the temp dir; printed when ready)' })
      .option('tls-client-key-out', { type: 'string', requiresArg: true, describe: 'The key of that client certificate (default: the temp dir; printed when ready)' })
      .option('max-connections', optionFlag('maxConnections', 'max-connections', 'max.connections per listener: more connections wait for a slot (default: no limit)'))
      .option('max-connections-per-ip', optionFlag('maxConnectionsPerIp', 'max-connections-per-ip', 'max.connections.per.ip per listener: more are closed (default: no limit)'))
      .option('connections-max-idle-ms', optionFlag('connectionsMaxIdleMs', 'connections-max-idle-ms', 'connections.max.idle.ms: close connections with no traffic for this long (0 = never)', { default: defaultOptions.connectionsMaxIdleMs }))
      .option('request-timeout-ms', optionFlag('requestTimeoutMs', 'request-timeout-ms', 'Close a connection whose begun request, TLS handshake or SASL exchange takes longer (0 = no bound)', { default: defaultOptions.requestTimeoutMs }))
      .option('fetch-max-bytes', optionFlag('fetchMaxBytes', 'fetch-max-bytes', 'fetch.max.bytes: cap on a Fetch answer, by whole batches (the first always comes)', { default: defaultOptions.fetchMaxBytes }))
      .option('max-records-per-fetch', optionFlag('maxRecordsPerFetch', 'max-records-per-fetch', 'Cap on records in a Fetch answer, by whole batches (the first always comes; default: none)'))
      .option('control-port', optionFlag('controlPort', 'control-port', 'Port of the HTTP control API (0 = a free port, printed when ready)', { default: defaultOptions.controlPort }))
      .option('control-host', { type: 'string', requiresArg: true, default: defaultOptions.controlHost, describe: 'Address the control API binds to' })
      .option('control-token', { type: 'string', requiresArg: true, describe: 'Require "Authorization: Bearer <token>" on the control API (default: $KAFKAESQUE_CONTROL_TOKEN)' })
      .option('control-allow-remote', { type: 'boolean', default: false, describe: 'Let the control API serve non-loopback clients' })
      .option('control-allowed-host', { type: 'string', array: true, describe: 'A host name the control API answers for besides loopback and localhost (repeatable; .domain allows subdomains)' })
      .option('producer-id-expiration-ms', optionFlag('producerIdExpirationMs', 'producer-id-expiration-ms', 'producer.id.expiration.ms: idle producer ids are forgotten', { default: defaultOptions.producerIdExpirationMs }))
      .option(
        'producer-id-expiration-check-interval-ms',
        optionFlag('producerIdExpirationCheckIntervalMs', 'producer-id-expiration-check-interval-ms', 'producer.id.expiration.check.interval.ms: how often idle producer ids are looked for (and only then forgotten)', {
          default: defaultOptions.producerIdExpirationCheckIntervalMs,
        }),
      )
      .option('transaction-max-timeout-ms', optionFlag('transactionMaxTimeoutMs', 'transaction-max-timeout-ms', 'transaction.max.timeout.ms', { default: defaultOptions.transactionMaxTimeoutMs }))
      .option('proxy', { type: 'boolean', default: true, describe: 'Serve through the chaos proxy (--no-proxy: clients reach the brokers directly, no faults)' })
      .option('direct', { type: 'boolean', default: true, describe: 'With the proxy: a fault-free side door on free ports for the test\'s own clients, named in the ready line as directBootstrap (--no-direct: none)' })
      .option('upstream', {
        type: 'string',
        describe: 'Upstream mode: put the chaos proxy in front of this Kafka cluster (host:port[,host:port...]) instead of the in-memory one; --port is the first proxy port (docs/upstream.md)',
      })
      .option('seed', optionFlag('seed', 'seed', 'Seed of the fault generator (default: random; printed when ready)'))
      .option('report', { type: 'string', requiresArg: true, describe: 'At stop, write the run as one self-contained HTML file: timeline, cluster, audit anomalies and the faults before each (docs/web-view.md)' })
      .option('events-file', { type: 'string', requiresArg: true, describe: 'Append every fault event, node stop/start and leader change to this file, one JSON line each, as it happens' })
      .option('sasl-user', { type: 'string', requiresArg: true, array: true, default: [], describe: 'Require SASL; a user as name:password (repeatable)' })
      .option('sasl-mechanism', {
        type: 'string',
        array: true,
        choices: SASL_MECHANISMS,
        describe: 'SASL mechanisms to enable (default with --sasl-user: PLAIN and both SCRAMs); OAUTHBEARER takes unsecured JWTs, as Kafka\'s default validator does',
      })
      .option('sasl-oauthbearer-required-scope', { type: 'string', requiresArg: true, array: true, default: [], describe: 'OAUTHBEARER: a scope value every token must carry (repeatable; implies OAUTHBEARER)' })
      .option('authorizer', { type: 'boolean', default: false, describe: "An authorizer as Kafka's StandardAuthorizer: without ACLs only super users may act (docs/security.md); the flags below imply it" })
      .option('super-user', { type: 'string', requiresArg: true, array: true, default: [], describe: 'super.users: a principal allowed everything, e.g. User:admin (repeatable)' })
      .option('allow-everyone-if-no-acl-found', { type: 'boolean', default: false, describe: 'allow.everyone.if.no.acl.found: a resource without any ACL is open to all' })
      .option('acl', { type: 'string', requiresArg: true, array: true, default: [], describe: `An ACL at start, as ${ACL_FORM}, e.g. User:alice,READ,TOPIC:orders (repeatable)` })
      .option('json', { type: 'boolean', default: false, describe: 'Print one JSON line on stdout when ready' })
      .option('log-level', { type: 'string', requiresArg: true, default: 'info', choices: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] })
      .option('pretty-logs', { type: 'boolean', describe: 'One log line per event for people, coloured on a terminal (default: when stderr is a terminal; KAFKAESQUE_PRETTY=1 or 0 decides otherwise; --no-pretty-logs: JSON lines)' })
      .example('$0 start', '3 brokers on 127.0.0.1:9092-9094')
      .example('$0 start --brokers 1 --port 0 --json', 'one broker on a free port; prints {"bootstrap":...}')
      .example('$0 start --topic orders:6:3', 'pre-create a topic')
      .example('$0 start --preset lost-ack --preset ./my-story.json', 'start with the rules of presets')
      .example('$0 start --tls --tls-ca-out ca.pem', 'TLS listeners; clients trust ca.pem')
      .example('$0 start --tls-client-auth required --json', 'mTLS: clients trust the CA and present the client certificate the ready line names')
      .example('$0 start --upstream kafka.internal:9092 --port 19092', 'the chaos proxy in front of a real cluster; clients bootstrap from 127.0.0.1:19092') as never,
  handler: async (args) => {
    let running: RunningCluster | RunningProxy;
    try {
      const options = optionsFrom(args);
      running = args.upstream !== undefined ? await startProxy({ ...options, upstream: args.upstream }) : await startCluster(options);
    } catch (err) {
      const { message, code } = startFailure(err);
      process.stderr.write(`kafkaesque: ${message}\n`);
      process.exit(code);
    }
    let tlsFiles: TlsFiles | undefined;
    try {
      if (running.tls) tlsFiles = writeTlsFiles(running.tls, args);
    } catch (err) {
      process.stderr.write(`kafkaesque: ${(err as Error).message}\n`);
      await running.stop();
      process.exit(EXIT_FAILED);
    }
    const upstream = 'upstream' in running ? running.upstream.bootstrap : undefined;
    const direct = 'directBootstrap' in running ? running.directBootstrap : null;
    const kafkaVersion = upstream === undefined ? (running as RunningCluster).cluster.profile.name : undefined;
    const ready = {
      bootstrap: running.bootstrap,
      ...(direct ? { directBootstrap: direct } : {}),
      brokers: Object.fromEntries(running.brokers),
      controlUrl: running.controlUrl,
      proxy: running.proxy,
      ...(upstream !== undefined ? { upstream } : {}),
      ...(kafkaVersion ? { kafkaVersion } : {}),
      seed: running.seed,
      pid: process.pid,
      ...(tlsFiles ? { tlsCa: tlsFiles.ca } : {}),
      ...(tlsFiles?.clientCert ? { tlsClientCert: tlsFiles.clientCert, tlsClientKey: tlsFiles.clientKey } : {}),
    };
    const what = upstream !== undefined ? `chaos proxy ready in front of ${upstream} (upstream mode)` : `${args.brokers} broker(s) ready`;
    const mode = kafkaVersion ? `; Kafka ${kafkaVersion}; ${running.proxy ? 'chaos proxy on' : 'no proxy'}` : '';
    if (args.json) process.stdout.write(JSON.stringify(ready) + '\n');
    else process.stdout.write(`kafkaesque: ${what}; bootstrap ${running.bootstrap}${direct && running.proxy ? `; side door ${direct}` : ''}; control ${running.controlUrl}${mode}; seed ${running.seed}${tlsText(tlsFiles)}\n`);
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await running.stop();
      // Files we chose the place of belong to this run; those at --tls-*-out paths are the user's.
      tlsFiles?.cleanUp();
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  },
};

/** The flag of each option start sets, for messages about an option: the library names the option, the CLI its flag. */
const FLAG_OF: Partial<Record<OptionKey, string>> = {
  nodeIds: 'node-ids',
  defaultPartitions: 'partitions',
  defaultReplicationFactor: 'replication-factor',
  autoCreateTopics: 'auto-create-topics',
  topics: 'topic',
  presets: 'preset',
  sasl: 'sasl-user',
  authorizer: 'acl',
  tls: 'tls',
  logLevel: 'log-level',
  prettyLogs: 'pretty-logs',
};
const flagOf = (key: string): string => {
  const option = key.split(/[.[]/)[0]! as OptionKey;
  return `--${FLAG_OF[option] ?? option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
};

/** A start that failed, as the flags say it: a refused option names its flag (exit 2), a listener that could not bind the flag of its port (exit 1). */
export function startFailure(err: unknown): { message: string; code: number } {
  if (err instanceof OptionsError) {
    const detail = err.key.includes('.') || err.key.includes('[') ? ` (${err.key})` : '';
    return { message: `${flagOf(err.key)}${detail}: ${err.reason}\nRun with --help for usage.`, code: EXIT_USAGE };
  }
  if (err instanceof ListenError) return { message: `${flagOf(err.option)}: ${(err.cause as Error).message}`, code: EXIT_FAILED };
  return describeFailure(err);
}

/** The library options the flags say; upstream mode refuses those that need the in-memory cluster (startProxy). */
function optionsFrom(args: StartArgs): Partial<KafkaesqueOptions> {
  const tls = tlsOptionsFromFlags(args);
  const inMemory: Partial<KafkaesqueOptions> = {
    brokers: args.brokers,
    nodeIds: args['node-ids'],
    fetchMaxBytes: args['fetch-max-bytes'],
    maxRecordsPerFetch: args['max-records-per-fetch'],
    defaultPartitions: args.partitions,
    defaultReplicationFactor: args['replication-factor'],
    autoCreateTopics: args['auto-create-topics'],
    kafkaVersion: args['kafka-version'],
    coldStart: args['cold-start'],
    minInsyncReplicas: args['min-insync-replicas'],
    replicationLagMs: args['replication-lag-ms'],
    groupInitialRebalanceDelayMs: args['group-initial-rebalance-delay-ms'],
    producerIdExpirationMs: args['producer-id-expiration-ms'],
    producerIdExpirationCheckIntervalMs: args['producer-id-expiration-check-interval-ms'],
    transactionMaxTimeoutMs: args['transaction-max-timeout-ms'],
    authorizer: authorizerFrom(args),
  };
  return {
    ...(args.upstream === undefined ? inMemory : {}),
    tls,
    maxConnections: args['max-connections'],
    maxConnectionsPerIp: args['max-connections-per-ip'],
    connectionsMaxIdleMs: args['connections-max-idle-ms'],
    requestTimeoutMs: args['request-timeout-ms'],
    port: args.port,
    ports: args.ports,
    host: args.host,
    advertisedHost: args['advertised-host'],
    topics: args.topic.map(parseTopic),
    presets: args.preset,
    sasl: saslFrom(args),
    maxRequestSize: args['max-request-size'],
    controlPort: args['control-port'],
    controlHost: args['control-host'],
    // From the environment by default: a token on the command line shows in `ps`.
    controlToken: args['control-token'] ?? (process.env.KAFKAESQUE_CONTROL_TOKEN || undefined),
    controlAllowRemote: args['control-allow-remote'],
    ...(args['control-allowed-host'] ? { controlAllowedHosts: args['control-allowed-host'] } : {}),
    logLevel: args['log-level'],
    prettyLogs: args['pretty-logs'] ?? prettyByDefault(),
    proxy: args.proxy,
    direct: args.direct,
    seed: args.seed,
    eventsFile: args['events-file'],
    report: args.report,
  };
}

/** The TLS part of the human-readable ready line. */
function tlsText(files: TlsFiles | undefined): string {
  if (!files) return '';
  const client = files.clientCert ? `; client certificate ${files.clientCert}, key ${files.clientKey}` : '';
  return `; TLS, CA in ${files.ca}${client}`;
}

/** SASL from the flags: users for PLAIN and SCRAM, OAUTHBEARER when named or given a required scope; none without either. */
function saslFrom(args: StartArgs): SaslOptions | undefined {
  const scope = args['sasl-oauthbearer-required-scope'];
  const oauth = scope.length > 0 || (args['sasl-mechanism'] ?? []).includes('OAUTHBEARER');
  if (!args['sasl-user'].length && !oauth) return undefined;
  const named = args['sasl-mechanism'];
  // A required scope implies OAUTHBEARER, also when other mechanisms are named.
  const mechanisms = named && oauth && !named.includes('OAUTHBEARER') ? [...named, 'OAUTHBEARER' as const] : named;
  return {
    users: parseSaslUsers(args['sasl-user']),
    ...(mechanisms ? { mechanisms } : {}),
    ...(oauth ? { oauthbearer: scope.length ? { requiredScope: scope } : {} } : {}),
  };
}
