// The clients of the compatibility suite: how each one's driver is run, what
// it cannot do (and why), and where it comes from. Drivers live in
// test/clients/*_compat.*; scripts/install-test-clients.sh installs the
// Debian ones.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

// Debian's Go sources of sarama, built in GOPATH mode: no module proxy, no network.
const GOPATH = '/usr/share/gocode';
const SARAMA_PKG = 'golang-github-shopify-sarama-dev';
let saramaDir: string | null = null;

export const clientSpecs: ClientSpec[] = [
  {
    id: 'kafkajs',
    name: 'kafkajs',
    source: () => `npm kafkajs ${npmVersion('kafkajs')}`,
    missing: () => (existsSync(join(root, 'node_modules/kafkajs')) ? null : 'kafkajs is not installed: npm ci'),
    command: () => [process.execPath, [clients('kafkajs_compat.mjs')]],
    unsupported: {},
    notes: 'No assign() in kafkajs: every read-back is a consumer group of its own reading from the beginning. The two group members are two consumers in one process; offsets are committed with commitOffsets() after reading.',
  },
  {
    id: 'platformatic',
    name: '@platformatic/kafka',
    source: () => `npm @platformatic/kafka ${npmVersion('@platformatic/kafka')}`,
    missing: () => (existsSync(join(root, 'node_modules/@platformatic/kafka')) ? null : '@platformatic/kafka is not installed: npm ci'),
    command: () => [process.execPath, [clients('platformatic_compat.mjs')]],
    unsupported: {},
    notes:
      'Version 1.x is the newest line that supports Node 20 (2.x needs Node 22). Its Consumer always has a groupId: read-backs are groups of their own from the earliest offset. It negotiates versions with ApiVersions and uses flexible versions (Metadata v12, Fetch v17 …). Two Consumers in one process form the group; offsets are committed with commit(). The group driver waits 1 s between the rebalance and the first produce, to work around a client bug this suite found: the MessagesStream hands over the records of a Fetch that was sent under the previous assignment (it never compares them with the current one), so member a, whose long poll for all four partitions was still in flight, read 25 records of member b\'s partitions and they were consumed twice. Unchanged upstream as of 2.9.0.',
  },
  {
    id: 'rdkafka',
    name: 'librdkafka (confluent-kafka-python)',
    source: () => `Debian python3-confluent-kafka ${debVersion('python3-confluent-kafka') ?? '(missing)'}, librdkafka1 ${debVersion('librdkafka1') ?? '(missing)'}`,
    missing: () => (pythonImports('confluent_kafka') ? null : `python3-confluent-kafka is missing: ${hint}`),
    command: () => [debianPython, [clients('rdkafka_compat.py')]],
    unsupported: {},
    notes: 'Read-backs assign() every partition at offset 0 (a group.id is set because the python client requires one; no group is joined). The group members are two Consumers polled in turn from one thread; offsets are committed with commit(asynchronous=False). The aborted transaction is flushed before abort_transaction(), which would otherwise purge unsent records.',
  },
  {
    id: 'kcat',
    name: 'kcat',
    source: () => `Debian kcat ${debVersion('kcat') ?? '(missing)'} (librdkafka ${debVersion('librdkafka1') ?? '?'})`,
    missing: () => (onPath('kcat') ? null : `kcat is missing: ${hint}`),
    command: () => [process.execPath, [clients('kcat_compat.mjs')]],
    unsupported: {},
    notes:
      "kcat cannot choose a partition per line: messages go as `key:value` lines (-K :) and librdkafka's partitioner spreads them by key. Read-backs are `kcat -C -o beginning -e` (the simple consumer, no group). The group is two `kcat -G` processes, stopped with SIGTERM, which commits (auto-commit) and leaves. Transactions use `-X transactional.id`: all of stdin is one transaction, committed when stdin closes; an abort is SIGTERM once the records are in the log, with stdin padded to whole KiB because kcat reads it in 1024-byte fread()s.",
  },
  {
    id: 'kafka-python',
    name: 'kafka-python',
    source: () => `Debian python3-kafka ${debVersion('python3-kafka') ?? '(missing)'}`,
    missing: () => (pythonImports('kafka') ? null : `python3-kafka is missing: ${hint}`),
    command: () => [debianPython, [clients('kafka_python_compat.py')]],
    unsupported: {
      idempotent: 'kafka-python 2.0.2 has no idempotent producer (added in kafka-python 2.2)',
      transactions: 'kafka-python 2.0.2 has no transactional producer (added in kafka-python 2.2)',
    },
    notes:
      "api_version is left unset, as most applications leave it: the client sends ApiVersions v0, guesses the broker's version from the reply, and uses fixed request versions for that guess. Read-backs assign() every partition (group_id=None). Each group member polls from its own thread: kafka-python's poll() blocks during a rebalance until the group is joined, and the broker waits for both members.",
  },
  {
    id: 'sarama',
    name: 'sarama (Go)',
    source: () => `Debian ${SARAMA_PKG} ${debVersion(SARAMA_PKG) ?? '(missing)'}, golang-go ${debVersion('golang-go') ?? '(missing)'}`,
    missing: () => {
      if (!onPath('go')) return `go is missing (golang-go): ${hint}`;
      if (!existsSync(join(GOPATH, 'src/github.com/Shopify/sarama'))) return `${SARAMA_PKG} is missing: ${hint}`;
      return null;
    },
    async prepare() {
      saramaDir = mkdtempSync(join(tmpdir(), 'kafkaesque-sarama-'));
      const version = (debVersion(SARAMA_PKG) ?? 'unknown').replace(/-[^-]*$/, '');
      try {
        execFileSync('go', ['build', '-o', join(saramaDir, 'sarama_compat'), '-ldflags', `-X main.saramaVersion=${version}`, clients('sarama_compat.go')], {
          cwd: root,
          // GOPATH mode against Debian's sources; GOPROXY=off makes any attempt to download fail loudly.
          env: { ...process.env, GO111MODULE: 'off', GOPATH, GOFLAGS: '', GOPROXY: 'off', GOCACHE: process.env.GOCACHE ?? join(tmpdir(), 'kafkaesque-go-cache') },
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 240_000,
        });
      } catch (err) {
        const e = err as { stderr?: Buffer; message: string };
        const lines = String(e.stderr ?? e.message).split('\n').filter((l) => l && !/warning|deprecated|cgo-gcc-prolog|zstd\.h|^\s|In file included/.test(l));
        throw new Error(`cannot build the sarama driver offline: ${lines.slice(0, 3).join(' | ') || e.message}`);
      }
    },
    command: () => [join(saramaDir ?? '/nonexistent', 'sarama_compat'), []],
    unsupported: {
      transactions: 'sarama 1.22 has no transactional producer (added in sarama 1.37; Debian bookworm packages 1.22.1)',
    },
    notes:
      "Built offline from Debian's packaged sources in GOPATH mode (GO111MODULE=off GOPATH=/usr/share/gocode). Config.Version is sarama.MaxVersion (2.2.0): sarama does not negotiate, it sends the versions that Config.Version implies, and its default (0.8.2) predates record batches, idempotence and consumer groups. Read-backs use ConsumePartition from the oldest offset (no group). The group is two ConsumerGroups; marked offsets are committed by the offset manager and on Close(). With the default Config.Version the first Produce (v0, a magic 0 message set) is refused with UNSUPPORTED_FOR_MESSAGE_FORMAT: kafkaesque does not convert magic 0/1 (docs/unsupported.md). (Debian's kafka-go, 0.2.1, is older than its consumer-group support and was not used.)",
    cleanup() {
      if (saramaDir) rmSync(saramaDir, { recursive: true, force: true });
      saramaDir = null;
    },
  },
];
