// The compatibility suite (issue 7): every client of clients.ts runs every
// scenario of scenarios.ts that it supports, each against a fresh 3-broker
// cluster, through its driver in test/clients/ (a child process, bounded in
// time). The driver's report is checked against the broker's own state. At
// the end the client x scenario table is printed and written to
// docs/compatibility.md.
//
// Run with `npm run test:compat` (not part of `npm test`; CI runs both).
// KAFKAESQUE_COMPAT_KAFKA_VERSION=4.4 runs it against that Kafka version
// profile instead of the default (docs/protocol.md#kafka-versions); such a
// run does not rewrite docs/compatibility.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { runClient } from '../support/external-client.js';
import { topicLog, traceGroup } from './broker-view.js';
import { clientSpecs, type ClientSpec } from './clients.js';
import { consoleTable, counts, markdown, type CellResult } from './report.js';
import { scenarios, type DriverReport, type Scenario } from './scenarios.js';

const root = new URL('../../', import.meta.url);
// Past this, the cells not yet run fail as "not run": the whole suite must stay under 5 minutes.
const BUDGET_MS = 240_000;
const BROKERS = 3;
const started = Date.now();
const ci = process.env.CI === 'true';
const kafkaVersion = process.env.KAFKAESQUE_COMPAT_KAFKA_VERSION || undefined;
const cells: CellResult[] = [];
const driverClients = new Map<string, string>();
let proxySeen = false;

async function stopBounded(kafka: RunningCluster, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stopped = await Promise.race([kafka.stop().then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), 10_000)))]);
  clearTimeout(timer);
  if (!stopped) process.stderr.write(`compat: the cluster of ${what} did not stop within 10 s\n`);
}

/** The profile a scenario runs on: the environment's, else the one it needs (KIP-848: 4.4). */
const cellKafkaVersion = (s: Scenario) => kafkaVersion ?? s.kafkaVersions?.run;

/** Why the environment's profile cannot serve a scenario, or undefined. */
function notServed(s: Scenario): string | undefined {
  if (s.notServed) return s.notServed;
  if (kafkaVersion && s.kafkaVersions && !s.kafkaVersions.served.some((v) => kafkaVersion.startsWith(v))) {
    return `the Kafka ${kafkaVersion} profile does not serve ${s.kafkaVersions.what}, as a default broker of that version does not (docs/unsupported.md)`;
  }
  return undefined;
}

async function runCell(client: ClientSpec, s: Scenario, unavailable: string | null, prepareError: () => string | null): Promise<CellResult> {
  const cell: CellResult = { client: client.id, scenario: s.id, status: 'fail', problems: [], seconds: 0 };
  // In CI a missing client is a failure (a skipped test cannot fail); locally the test is skipped instead.
  if (unavailable) return { ...cell, reason: unavailable, problems: [unavailable] };
  const prep = prepareError();
  if (prep) return { ...cell, reason: prep, problems: [prep] };
  if (Date.now() - started > BUDGET_MS) return { ...cell, status: 'not-run', reason: `the suite's ${BUDGET_MS / 1000} s budget was spent before this scenario`, problems: [] };

  const topic = `compat-${client.id}-${s.id}`;
  const group = `${topic}-group`;
  const txnId = `${topic}-txn`;
  const version = cellKafkaVersion(s);
  const kafka = await startCluster({ brokers: BROKERS, topics: [{ name: topic, partitions: s.partitions }], ...(version ? { kafkaVersion: version } : {}) });
  proxySeen ||= Boolean((kafka as unknown as { proxy?: boolean }).proxy);
  for (const [name, value] of Object.entries(s.groupConfigs ?? {})) kafka.cluster.groupConfigs.set(group, name, value);
  const tracer = s.id === 'group' || s.id === 'consumer-group' ? traceGroup(kafka.cluster, group, topic, s.partitions) : null;
  const t0 = Date.now();
  try {
    const [cmd, lead] = client.command();
    const args = [...lead, kafka.bootstrap, s.driverScenario ?? s.id, topic, '-n', String(Math.max(1, s.n)), '--partitions', String(s.partitions), '--group', group, '--txn-id', txnId];
    let report: DriverReport;
    try {
      report = (await runClient(cmd, args, s.timeoutS)) as DriverReport;
    } catch (err) {
      const msg = (err as Error).message.split('\n').filter(Boolean).slice(0, 4).join(' | ');
      return { ...cell, seconds: (Date.now() - t0) / 1000, reason: msg, problems: [`driver did not report: ${msg}`] };
    }
    cell.seconds = (Date.now() - t0) / 1000;
    if (report.client) driverClients.set(client.id, report.client);
    const trace = tracer?.stop() ?? null;
    if (!report.ok) {
      cell.problems = (report.errors.length ? report.errors : ['the driver reported failure without a reason']).map((e) => `client: ${e}`);
    } else {
      const ctx = { report, cluster: kafka.cluster, topic, group, txnId, log: topicLog(kafka.cluster, topic), trace };
      cell.problems = s.check(ctx);
      cell.note = [s.note?.(ctx), report.api_version ? `the client guessed broker version ${report.api_version} from ApiVersions v0` : null].filter(Boolean).join('; ') || null;
    }
    cell.status = cell.problems.length ? 'fail' : 'pass';
    cell.reason = cell.problems[0];
    return cell;
  } finally {
    tracer?.stop();
    await stopBounded(kafka, `${client.id}/${s.id}`);
  }
}

for (const client of clientSpecs) {
  describe(client.name, () => {
    const unavailable = client.missing();
    let prepareError: string | null = null;
    beforeAll(async () => {
      if (unavailable || !client.prepare || scenarios.every((s) => client.unsupported[s.id] || (s.needs && client.unsupported[s.needs]) || notServed(s) || client.notServed?.[s.id])) return;
      try {
        await client.prepare();
      } catch (err) {
        prepareError = (err as Error).message;
      }
    }, 300_000);
    afterAll(() => client.cleanup?.());

    for (const s of scenarios) {
      // Skipped on purpose, with the reason in the title: a feature the client
      // itself lacks (kafka-python 2.0.2 has no transactions), or, outside CI
      // only, a client not installed here. In CI a missing client fails its cells.
      const unsupported = client.unsupported[s.id] ?? (s.needs ? client.unsupported[s.needs] : undefined);
      if (unsupported) {
        cells.push({ client: client.id, scenario: s.id, status: 'unsupported', reason: unsupported, problems: [], seconds: 0 });
        test.skip(`${s.title}: not supported by the client (${unsupported})`, () => {});
        continue;
      }
      // Skipped on purpose, with the reason in the title: the client can do
      // it, kafkaesque does not serve it yet (KIP-848's consumer protocol).
      const refused = notServed(s) ?? client.notServed?.[s.id];
      if (refused) {
        cells.push({ client: client.id, scenario: s.id, status: 'not-served', reason: refused, problems: [], seconds: 0 });
        test.skip(`${s.title}: not supported by kafkaesque yet (${refused})`, () => {});
        continue;
      }
      if (unavailable && !ci) {
        cells.push({ client: client.id, scenario: s.id, status: 'unavailable', reason: unavailable, problems: [], seconds: 0 });
        test.skip(`${s.title}: ${unavailable}`, () => {});
        continue;
      }
      test(
        s.title,
        async () => {
          const r = await runCell(client, s, unavailable, () => prepareError);
          cells.push(r);
          if (r.status !== 'pass') throw new Error(`${client.name} / ${s.title}: ${r.status === 'not-run' ? r.reason : r.problems.join('\n  ')}`);
        },
        (s.timeoutS + 40) * 1000,
      );
    }
  });
}

afterAll(() => {
  const totalSeconds = (Date.now() - started) / 1000;
  const table = consoleTable(clientSpecs, scenarios, cells);
  const { passed, failed, skipped } = counts(cells);
  process.stdout.write(`\nClient compatibility${kafkaVersion ? ` (Kafka ${kafkaVersion} profile)` : ''} (${Math.round(totalSeconds)} s)\n\n${table}\n\n`);
  // Only a full run against the default profile rewrites the docs: a run filtered with -t would leave holes in the table.
  if (cells.length === clientSpecs.length * scenarios.length && !kafkaVersion) {
    const info = {
      date: new Date().toISOString().slice(0, 10),
      brokerVersion: JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).version as string,
      brokers: BROKERS,
      proxy: proxySeen,
      node: process.versions.node,
      totalSeconds,
      driverClients,
    };
    writeFileSync(new URL('docs/compatibility.md', root), markdown(clientSpecs, scenarios, cells, info));
    process.stdout.write('docs/compatibility.md written\n');
  } else {
    process.stdout.write(`docs/compatibility.md not written: ${cells.length} of ${clientSpecs.length * scenarios.length} cells ran\n`);
  }
  process.stdout.write(`compat: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
});
