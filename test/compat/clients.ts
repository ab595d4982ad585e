// The clients of the compatibility suite: how each one's driver is run, what
// it cannot do (and why), and where it comes from. Drivers live in
// test/clients/ (*_compat.*, go/, java/compat/); scripts/install-test-clients.sh
// installs every client that npm ci does not: today's from PyPI (a venv), the
// Go module proxy and Maven Central, the old ones from Debian.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScenarioId } from './scenarios.js';

const root = new URL('../../', import.meta.url).pathname;
const clients = (file: string) => join(root, 'test/clients', file);
export const debianPython = '/usr/bin/python3';

export interface ClientSpec {
  id: string;
  /** Row heading. */
  name: string;
  /** Where it comes from, with its version: "npm kafkajs 2.2.4", "Debian kcat 1.7.1-2". */
  source(): string;
  /** Why it cannot run here (with the install hint), or null. Cheap and synchronous. */
  missing(): string | null;
  /** One-time preparation (a build); throws with the reason when it fails. */
  prepare?(): Promise<void>;
  /** The driver's command and leading arguments. */
  command(): [string, string[]];
  /** Scenarios the client cannot do, and why (the docs quote this). */
  unsupported: Partial<Record<ScenarioId, string>>;
  /** Scenarios the client can do that kafkaesque cannot serve it yet, with why. */
  notServed?: Partial<Record<ScenarioId, string>>;
  /** How the driver uses the client, for the docs. */
  notes: string;
  cleanup?(): void;
}

function npmVersion(pkg: string): string {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}

function debVersion(pkg: string): string | null {
  try {
    return execFileSync('dpkg-query', ['-W', '-f', '${Version}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() || null;
  } catch {
    return null;
  }
}

function pythonImports(module: string): boolean {
  try {
    execFileSync(debianPython, ['-c', `import ${module}`], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

function onPath(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

const hint = 'run scripts/install-test-clients.sh (npm run test:compat does)';

// Today's Python clients from PyPI, in a venv of their own (git-ignored).
const venvPython = join(root, 'test/clients/.venv/bin/python');

function venvVersion(dist: string): string | null {
  if (!existsSync(venvPython)) return null;
  try {
    const code = `import importlib.metadata as m; print(m.version(${JSON.stringify(dist)}))`;
    return execFileSync(venvPython, ['-c', code], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim() || null;
  } catch {
    return null;
  }
}

// The Go drivers: one module (test/clients/go), built offline from the module
// cache that the install script filled; the old sarama from Debian's sources.
const goModule = join(root, 'test/clients/go');
const GOPATH = '/usr/share/gocode';
const SARAMA_PKG = 'golang-github-shopify-sarama-dev';
let goBinDir: string | null = null;

function goEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  // GOPROXY=off makes any attempt to download fail loudly; GOTOOLCHAIN=local keeps to the machine's Go.
  return { ...process.env, GOFLAGS: '', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: process.env.GOCACHE ?? join(tmpdir(), 'kafkaesque-go-cache'), ...extra };
}

function goVersion(): string {
  try {
    return execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
  } catch {
    return '(missing)';
  }
}

/** The version of a module that test/clients/go requires, or null when it is not in the module cache. */
function goModuleVersion(path: string): string | null {
  try {
    const out = execFileSync('go', ['list', '-m', '-json', path], { cwd: goModule, encoding: 'utf8', env: goEnv({}), stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 });
    const m = JSON.parse(out) as { Version?: string; Dir?: string };
    return m.Dir && m.Version ? m.Version : null;
  } catch {
    return null;
  }
}

/** Builds one Go driver into the run's temporary folder and returns the binary's path. */
function goBuild(name: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  goBinDir ??= mkdtempSync(join(tmpdir(), 'kafkaesque-go-'));
  const bin = join(goBinDir, name);
  try {
    execFileSync('go', ['build', '-o', bin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    const lines = String(e.stderr ?? e.message).split('\n').filter((l) => l && !/warning|deprecated|cgo-gcc-prolog|zstd\.h|^\s|In file included/.test(l));
    throw new Error(`cannot build the ${name} driver offline: ${lines.slice(0, 3).join(' | ') || e.message} (${hint})`);
  }
  return bin;
}

const goBin = (name: string) => join(goBinDir ?? '/nonexistent', name);

function goCleanup(): void {
  if (goBinDir) rmSync(goBinDir, { recursive: true, force: true });
  goBinDir = null;
}

// The Java client's driver: kafka-clients 4.x from Maven Central, built by test/clients/java/compat/build.sh.
const javaCompat = join(root, 'test/clients/java/compat');

function javaClientJar(): string | null {
  try {
    return readdirSync(join(javaCompat, 'lib')).find((f) => /^kafka-clients-.*\.jar$/.test(f)) ?? null;
  } catch {
    return null;
  }
}

// KIP-848's consumer protocol: none of these clients has it.
const noKip848 = (client: string) => `${client} has only the classic group protocol (no KIP-848 group.protocol=consumer)`;
// Share groups (KIP-932): the clients without a share consumer.
const noShare = (client: string, why: string) => `${client} has no share consumer (KIP-932: ${why})`;
// Transactions v2 (KIP-890 part 2): what each client without it does on a transaction.version 2 cluster, seen in the run and in its source.
const noTv2 = (client: string, why: string) => `${client} has only transactions v1 (${why}): on a transaction.version 2 cluster it sends AddPartitionsToTxn and an EndTxn below v5, and the coordinator answers it as v1`;

export const clientSpecs: ClientSpec[] = [
  {
    id: 'kafkajs',
    name: 'kafkajs',
    source: () => `npm kafkajs ${npmVersion('kafkajs')}`,
    missing: () => (existsSync(join(root, 'node_modules/kafkajs')) ? null : 'kafkajs is not installed: npm ci'),
    command: () => [process.execPath, [clients('kafkajs_compat.mjs')]],
    unsupported: { 'consumer-group': noKip848('kafkajs 2.2.4'), 'transactions-v2': noTv2('kafkajs 2.2.4', 'its EndTxn requests stop at v1'), 'share-group': noShare('kafkajs 2.2.4', 'no ShareGroupHeartbeat nor ShareFetch among its protocol requests') },
    notes: 'No assign() in kafkajs: every read-back is a consumer group of its own reading from the beginning. The two group members are two consumers in one process; offsets are committed with commitOffsets() after reading.',
  },
  {
    id: 'platformatic',
    name: '@platformatic/kafka',
    source: () => `npm @platformatic/kafka ${npmVersion('@platformatic/kafka')}`,
    missing: () => (existsSync(join(root, 'node_modules/@platformatic/kafka')) ? null : '@platformatic/kafka is not installed: npm ci'),
    command: () => [process.execPath, [clients('platformatic_compat.mjs')]],
    unsupported: { 'transactions-v2': noTv2('@platformatic/kafka', 'its EndTxn requests are v3-v4'), 'share-group': noShare('@platformatic/kafka 1.35', 'its API table names the share API keys, with no request builder nor a consumer for them') },
    notes:
      'Version 1.x is the newest line that supports Node 20 (2.x needs Node 22). Its Consumer always has a groupId: read-backs are groups of their own from the earliest offset. It negotiates versions with ApiVersions and uses flexible versions (Metadata v12, Fetch v17 …). Two Consumers in one process form the group; offsets are committed with commit(). The group driver waits 1 s between the rebalance and the first produce, to work around a client bug this suite found: the MessagesStream hands over the records of a Fetch that was sent under the previous assignment (it never compares them with the current one), so member a, whose long poll for all four partitions was still in flight, read 25 records of member b\'s partitions and they were consumed twice. Unchanged upstream as of 2.9.0.',
  },
  {
    id: 'java',
    name: 'Java (kafka-clients 4)',
    source: () => `Maven Central ${javaClientJar()?.replace(/^kafka-clients-(.*)\.jar$/, 'kafka-clients $1') ?? 'kafka-clients (missing)'} (test/clients/java/compat/pom.xml)`,
    missing: () => {
      if (!onPath('java')) return `java is missing (default-jdk-headless): ${hint}`;
      if (!javaClientJar() || !existsSync(join(javaCompat, 'classes/Compat.class'))) return `the Java driver is not built (test/clients/java/compat/build.sh): ${hint}`;
      return null;
    },
    // The JVM's start-up is most of a short run on 2 cores: C1 only, a small serial heap.
    command: () => ['java', ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx256m', '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn', '-cp', `${join(javaCompat, 'lib')}/*:${join(javaCompat, 'classes')}`, 'Compat']],
    unsupported: {},
    notes:
      'The client everything on the JVM is built on (Spring Kafka, Kafka Streams …). It negotiates versions with ApiVersions. Its producer is idempotent by default: produce/fetch sets enable.idempotence=false, the idempotent producer leaves it on, the transactional one uses initTransactions/beginTransaction/commitTransaction/abortTransaction (every record acknowledged before the end). Read-backs assign() every partition with no group.id (the Java consumer then sends no group request). The group members are two KafkaConsumers (group.protocol=classic), each polled from its own thread; offsets are committed with commitSync(), close() leaves the group.',
  },
  {
    id: 'confluent-kafka',
    name: 'confluent-kafka-python 2 (bundled librdkafka)',
    source: () => `PyPI confluent-kafka ${venvVersion('confluent-kafka') ?? '(missing)'} (test/clients/.venv)`,
    missing: () => (venvVersion('confluent-kafka') ? null : `confluent-kafka is not in test/clients/.venv: ${hint}`),
    command: () => [venvPython, [clients('rdkafka_compat.py')]],
    unsupported: { 'transactions-v2': noTv2('librdkafka 2.16', 'observed in this suite: AddPartitionsToTxn and an EndTxn below v5 on the 4.4 profile') },
    notes: 'The same driver as the old librdkafka row (rdkafka_compat.py), on the librdkafka that the PyPI wheel bundles.',
  },
  {
    id: 'kafka-python',
    name: 'kafka-python 3',
    source: () => `PyPI kafka-python ${venvVersion('kafka-python') ?? '(missing)'} (test/clients/.venv)`,
    missing: () => (venvVersion('kafka-python') ? null : `kafka-python is not in test/clients/.venv: ${hint}`),
    command: () => [venvPython, [clients('kafka_python_compat.py')]],
    unsupported: { 'consumer-group': noKip848('kafka-python 3.0.12'), 'transactions-v2': noTv2('kafka-python 3.0.12', 'its transaction manager drives EndTxn up to v3'), 'share-group': noShare('kafka-python 3.0.12', 'kafka.protocol names the share API keys only, with no ShareFetch request nor a consumer that sends one') },
    notes:
      "The same driver as the old kafka-python row (kafka_python_compat.py). api_version is left unset: the client asks ApiVersions and guesses the broker's version from the reply. Its producer is idempotent by default: produce/fetch sets enable_idempotence=False. Transactions: init_transactions/begin_transaction/commit_transaction/abort_transaction, every record acknowledged before the end; the read-back is an assign()ed consumer with isolation_level=read_committed.",
  },
  {
    id: 'sarama',
    name: 'IBM/sarama (Go)',
    source: () => `Go module github.com/IBM/sarama ${goModuleVersion('github.com/IBM/sarama') ?? '(not downloaded)'}, ${goVersion()}`,
    missing: () => {
      if (!onPath('go')) return `go is missing: ${hint}`;
      return goModuleVersion('github.com/IBM/sarama') ? null : `github.com/IBM/sarama is not in the Go module cache: ${hint}`;
    },
    async prepare() {
      goBuild('sarama', ['./sarama'], goModule, goEnv({ GO111MODULE: 'on', GOFLAGS: '-mod=readonly' }));
    },
    command: () => [goBin('sarama'), []],
    unsupported: { 'consumer-group': noKip848('IBM/sarama 1.61.1'), 'transactions-v2': noTv2('IBM/sarama 1.61.1', 'its EndTxnRequest is valid up to v3'), 'share-group': noShare('IBM/sarama 1.61.1', 'no ShareFetchRequest') },
    notes:
      "A module build of test/clients/go (go.mod pins the version), the same driver source as the old sarama row. Config.Version is sarama.MaxVersion: sarama does not negotiate, it sends the versions that Config.Version implies. Transactions: a SyncProducer with Producer.Transaction.ID, BeginTxn/CommitTxn/AbortTxn; the read-back is ConsumePartition with Consumer.IsolationLevel=ReadCommitted.",
    cleanup: goCleanup,
  },
  {
    id: 'franz-go',
    name: 'franz-go (Go)',
    source: () => `Go module github.com/twmb/franz-go ${goModuleVersion('github.com/twmb/franz-go') ?? '(not downloaded)'}, ${goVersion()}`,
    missing: () => {
      if (!onPath('go')) return `go is missing: ${hint}`;
      return goModuleVersion('github.com/twmb/franz-go') ? null : `github.com/twmb/franz-go is not in the Go module cache: ${hint}`;
    },
    async prepare() {
      goBuild('franz', ['./franz'], goModule, goEnv({ GO111MODULE: 'on', GOFLAGS: '-mod=readonly' }));
    },
    command: () => [goBin('franz'), []],
    unsupported: {},
    notes:
      'A module build of test/clients/go/franz. franz-go negotiates versions with ApiVersions; its producer is idempotent by default, so produce/fetch sets DisableIdempotentWrite. Metadata comes from kadm. Read-backs are ConsumePartitions from the start (no group). The group members are two clients with ConsumerGroup and the default cooperative-sticky balancer (partitions added and revoked incrementally), polled from a goroutine each; offsets are committed with CommitUncommittedOffsets, Close() leaves the group. Transactions: TransactionalID, BeginTransaction, ProduceSync, EndTransaction(TryCommit or TryAbort); the read-back uses FetchIsolationLevel(ReadCommitted).',
    cleanup: goCleanup,
  },
  {
    id: 'rdkafka',
    name: 'librdkafka 2.0 (confluent-kafka-python 1.7, old client)',
    source: () => `Debian python3-confluent-kafka ${debVersion('python3-confluent-kafka') ?? '(missing)'}, librdkafka1 ${debVersion('librdkafka1') ?? '(missing)'}`,
    missing: () => (pythonImports('confluent_kafka') ? null : `python3-confluent-kafka is missing: ${hint}`),
    command: () => [debianPython, [clients('rdkafka_compat.py')]],
    unsupported: { 'consumer-group': 'librdkafka 2.0.2 predates group.protocol=consumer (KIP-848 came in later 2.x releases)', 'transactions-v2': 'librdkafka 2.0.2 predates transactions v2 (KIP-890 part 2, Kafka 4.0)', 'share-group': 'librdkafka 2.0.2 predates its share consumer (KIP-932, librdkafka 2.12 and later)' },
    notes: 'Read-backs assign() every partition at offset 0 (a group.id is set because the python client requires one; no group is joined). The group members are two Consumers polled in turn from one thread; offsets are committed with commit(asynchronous=False). The aborted transaction is flushed before abort_transaction(), which would otherwise purge unsent records.',
  },
  {
    id: 'kcat',
    name: 'kcat 1.7 (librdkafka 2.0, old client)',
    source: () => `Debian kcat ${debVersion('kcat') ?? '(missing)'} (librdkafka ${debVersion('librdkafka1') ?? '?'})`,
    missing: () => (onPath('kcat') ? null : `kcat is missing: ${hint}`),
    command: () => [process.execPath, [clients('kcat_compat.mjs')]],
    unsupported: { 'consumer-group': 'kcat 1.7.1 is built on librdkafka 2.0.2, which predates group.protocol=consumer', 'transactions-v2': 'kcat 1.7.1 is built on librdkafka 2.0.2, which predates transactions v2 (KIP-890 part 2)', 'share-group': 'kcat 1.7.1 has no share consumer, and its librdkafka 2.0.2 predates KIP-932' },
    notes:
      "kcat cannot choose a partition per line: messages go as `key:value` lines (-K :) and librdkafka's partitioner spreads them by key. Read-backs are `kcat -C -o beginning -e` (the simple consumer, no group). The group is two `kcat -G` processes, stopped with SIGTERM, which commits (auto-commit) and leaves. Transactions use `-X transactional.id`: all of stdin is one transaction, committed when stdin closes; an abort is SIGTERM once the records are in the log, with stdin padded to whole KiB because kcat reads it in 1024-byte fread()s.",
  },
  {
    id: 'kafka-python-2',
    name: 'kafka-python 2.0 (old client)',
    source: () => `Debian python3-kafka ${debVersion('python3-kafka') ?? '(missing)'}`,
    missing: () => (pythonImports('kafka') ? null : `python3-kafka is missing: ${hint}`),
    command: () => [debianPython, [clients('kafka_python_compat.py')]],
    unsupported: {
      idempotent: 'kafka-python 2.0.2 has no idempotent producer (added in kafka-python 2.2)',
      transactions: 'kafka-python 2.0.2 has no transactional producer (added in kafka-python 2.2)',
      'consumer-group': noKip848('kafka-python 2.0.2'),
      'share-group': noShare('kafka-python 2.0.2', 'it predates the share APIs'),
    },
    notes:
      "api_version is left unset, as most applications leave it: the client sends ApiVersions v0, guesses the broker's version from the reply, and uses fixed request versions for that guess. Read-backs assign() every partition (group_id=None). Each group member polls from its own thread: kafka-python's poll() blocks during a rebalance until the group is joined, and the broker waits for both members.",
  },
  {
    id: 'sarama-1.22',
    name: 'sarama 1.22 (Go, old client)',
    source: () => `Debian ${SARAMA_PKG} ${debVersion(SARAMA_PKG) ?? '(missing)'}, ${goVersion()}`,
    missing: () => {
      if (!onPath('go')) return `go is missing (golang-go): ${hint}`;
      if (!existsSync(join(GOPATH, 'src/github.com/Shopify/sarama'))) return `${SARAMA_PKG} is missing: ${hint}`;
      return null;
    },
    async prepare() {
      // GOPATH mode against Debian's sources, offline: a GOPATH of links in
      // front of Debian's makes github.com/IBM/sarama (the driver's import)
      // Debian's Shopify/sarama 1.22, and holds the driver's own packages.
      goBinDir ??= mkdtempSync(join(tmpdir(), 'kafkaesque-go-'));
      const gopath = join(goBinDir, 'gopath');
      mkdirSync(join(gopath, 'src/github.com/IBM'), { recursive: true });
      mkdirSync(join(gopath, 'src/kafkaesque/test/clients'), { recursive: true });
      symlinkSync(join(GOPATH, 'src/github.com/Shopify/sarama'), join(gopath, 'src/github.com/IBM/sarama'));
      symlinkSync(goModule, join(gopath, 'src/kafkaesque/test/clients/go'));
      const version = (debVersion(SARAMA_PKG) ?? 'unknown').replace(/-[^-]*$/, '');
      goBuild('sarama-1.22', ['-tags', 'sarama122', '-ldflags', `-X main.saramaVersion=${version}`, 'kafkaesque/test/clients/go/sarama'], gopath, goEnv({ GO111MODULE: 'off', GOPATH: `${gopath}:${GOPATH}` }));
    },
    command: () => [goBin('sarama-1.22'), []],
    unsupported: {
      transactions: 'sarama 1.22 has no transactional producer (added in sarama 1.37; Debian bookworm packages 1.22.1)',
      'consumer-group': noKip848('sarama 1.22'),
      'share-group': noShare('sarama 1.22', 'it predates the share APIs'),
    },
    notes:
      "The driver of IBM/sarama (test/clients/go/sarama), built offline from Debian's packaged sources in GOPATH mode (GO111MODULE=off, Debian's /usr/share/gocode behind a GOPATH that points github.com/IBM/sarama at its Shopify/sarama), with the sarama122 tag that leaves out the transactions. Config.Version is sarama.MaxVersion (2.2.0): sarama does not negotiate, it sends the versions that Config.Version implies, and its default (0.8.2) predates record batches, idempotence and consumer groups. Read-backs use ConsumePartition from the oldest offset (no group). The group is two ConsumerGroups; marked offsets are committed by the offset manager and on Close(). With the default Config.Version the first Produce (v0, a magic 0 message set) is refused with UNSUPPORTED_FOR_MESSAGE_FORMAT: kafkaesque does not convert magic 0/1 (docs/unsupported.md). (Debian's kafka-go, 0.2.1, is older than its consumer-group support and was not used.)",
    cleanup: goCleanup,
  },
];
