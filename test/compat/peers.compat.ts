// The same client scenarios against franz-go's kfake, the in-memory peer
// bench/ measures beside kafkaesque (issue 15, item 6): three of the
// matrix's clients (kafkajs, the Java client, franz-go) run the scenarios of
// scenarios.ts through their drivers against a fresh 3-broker kfake each
// (bench/kfake, built by bench/lib/kfake.mjs from its pinned modules). kfake
// has no broker log to read, so a cell is checked by the client's own report
// alone: it acknowledged what it sent and read back exactly the values it
// should (each once; under read_committed, the committed ones only). The table
// goes to docs/peers.md, beside docs/compatibility.md's.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { runClient } from '../support/external-client.js';
import { clientSpecs } from './clients.js';
import { scenarios, values, type DriverReport, type ReadRecord, type ScenarioId } from './scenarios.js';

const root = new URL('../../', import.meta.url);
const CLIENTS = ['kafkajs', 'java', 'franz-go'];
const SCENARIOS: ScenarioId[] = ['produce-fetch', 'group', 'idempotent', 'transactions', 'consumer-group'];
const ci = process.env.CI === 'true';

interface PeerCell {
  client: string;
  scenario: ScenarioId;
  problems: string[];
  seconds: number;
}
const cells: PeerCell[] = [];
let kfakeVersion = '';

function kfakeBinary(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['bench/lib/kfake.mjs'], { timeout: 280_000 }, (err, stdout, stderr) => (err ? reject(new Error(`bench/lib/kfake.mjs failed: ${err.message}\n${stderr}`)) : resolve(stdout.trim())));
  });
}

/** One kfake cluster for one cell: 3 brokers, the topic seeded with replication 3; stopped by the caller. */
function startKfake(bin: string, topic: string, partitions: number): Promise<{ child: ChildProcess; bootstrap: string }> {
  const child = spawn(bin, ['-brokers', '3', '-lifetime', '120', '-t', `${topic}:${partitions}:3`], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('kfake: no ready line within 10 s')), 10_000);
    child.once('exit', (code) => reject(new Error(`kfake exited (${code}) before its ready line`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      const ready = JSON.parse(line) as { bootstrap: string; kfake: string };
      kfakeVersion = ready.kfake;
      resolve({ child, bootstrap: ready.bootstrap });
    });
  });
}

/** Each expected value read exactly once, and nothing else. */
function readExactly(read: ReadRecord[] | undefined, expected: string[], who: string): string[] {
  const got = (read ?? []).map(([, , v]) => v);
  const counted = new Map<string, number>();
  for (const v of got) counted.set(v, (counted.get(v) ?? 0) + 1);
  const missing = expected.filter((v) => !counted.has(v));
  const twice = [...counted].filter(([, n]) => n > 1).map(([v]) => v);
  const extra = got.filter((v) => !expected.includes(v));
  const problems: string[] = [];
  if (missing.length) problems.push(`${who} missed ${missing.length} of ${expected.length} values (first: ${missing[0]})`);
  if (twice.length) problems.push(`${who} read ${twice.length} values more than once (first: ${twice[0]})`);
  if (extra.length) problems.push(`${who} read ${extra.length} values it should not (first: ${extra[0]})`);
  return problems;
}

/** What the client's own report shows for a scenario (the broker-side checks of scenarios.ts need kafkaesque's log). */
function checkReport(id: ScenarioId, n: number, r: DriverReport): string[] {
  switch (id) {
    case 'produce-fetch':
    case 'idempotent':
      return [...(r.produced === n ? [] : [`acknowledged ${JSON.stringify(r.produced)} of ${n}`]), ...readExactly(r.read, values(id, n), 'the client')];
    case 'group':
    case 'consumer-group': {
      const members = r.members ?? [];
      const problems = members.length === 2 ? [] : [`${members.length} members reported`];
      if (members.some((m) => m.read.length === 0)) problems.push('a member read nothing (no split)');
      return [...problems, ...readExactly(members.flatMap((m) => m.read), values(id, n), 'the group')];
    }
    case 'transactions':
      return readExactly(r.read, [...values('commit1', n), ...values('commit2', n)], 'the read_committed consumer');
    default:
      return [`no report check for ${id}`];
  }
}

let bin: string;
beforeAll(async () => {
  bin = await kfakeBinary();
}, 300_000);

for (const id of CLIENTS) {
  const client = clientSpecs.find((c) => c.id === id)!;
  describe(`${client.name} against kfake`, () => {
    const unavailable = client.missing();
    beforeAll(async () => {
      if (!unavailable) await client.prepare?.();
    }, 300_000);
    for (const sid of SCENARIOS) {
      const s = scenarios.find((x) => x.id === sid)!;
      if (client.unsupported[sid]) continue;
      const run = unavailable && !ci ? test.skip : test;
      run(s.title, async () => {
        if (unavailable) throw new Error(unavailable);
        const topic = `peer-${id}-${sid}`;
        const { child, bootstrap } = await startKfake(bin, topic, s.partitions);
        const t0 = Date.now();
        const cell: PeerCell = { client: client.name, scenario: sid, problems: [], seconds: 0 };
        try {
          const [cmd, lead] = client.command();
          const args = [...lead, bootstrap, sid, topic, '-n', String(Math.max(1, s.n)), '--partitions', String(s.partitions), '--group', `${topic}-group`, '--txn-id', `${topic}-txn`];
          try {
            const report = (await runClient(cmd, args, s.timeoutS)) as DriverReport;
            cell.problems = report.ok ? checkReport(sid, s.n, report) : report.errors.map((e) => `client: ${e}`);
          } catch (err) {
            cell.problems = [`driver did not report: ${(err as Error).message.split('\n')[0]}`];
          }
        } finally {
          cell.seconds = (Date.now() - t0) / 1000;
          cells.push(cell);
          child.kill('SIGTERM');
        }
        // A peer's gap is a finding for the table, not a failure of kafkaesque's suite.
      }, (s.timeoutS + 30) * 1000);
    }
  });
}

afterAll(() => {
  const full = CLIENTS.flatMap((id) => SCENARIOS.filter((sid) => !clientSpecs.find((c) => c.id === id)!.unsupported[sid]));
  if (cells.length !== full.length) {
    process.stdout.write(`docs/peers.md not written: ${cells.length} of ${full.length} cells ran\n`);
    return;
  }
  const titles = SCENARIOS.map((sid) => scenarios.find((s) => s.id === sid)!.title);
  const notes: string[] = [];
  const cell = (client: string, sid: ScenarioId) => {
    const c = cells.find((x) => x.client === client && x.scenario === sid);
    if (!c) return 'not supported by the client';
    if (!c.problems.length) return 'pass';
    notes.push(`${client} / ${sid}: ${c.problems.join('; ')}`);
    return `FAILED [${notes.length}]`;
  };
  const rows = CLIENTS.map((id) => clientSpecs.find((c) => c.id === id)!.name).map((name) => `| ${name} | ${SCENARIOS.map((sid) => cell(name, sid)).join(' | ')} |`);
  const md = [
    '<!-- Generated by `npm run test:compat` (test/compat/peers.compat.ts). Do not edit. -->',
    '',
    '# The same clients against kfake',
    '',
    `franz-go's kfake (${kfakeVersion}, bench/kfake), the in-memory peer bench/ measures beside kafkaesque, with three of [compatibility.md](compatibility.md)'s clients and its scenarios, run on ${new Date().toISOString().slice(0, 10)}: 3 kfake brokers per cell, the topic seeded with replication 3. kfake keeps no log a test can read, so each cell is checked by the client's own report only (what it acknowledged and read back, each value once); against kafkaesque the same runs are also checked against the broker's log, group and transaction state.`,
    '',
    `| client | ${titles.join(' | ')} |`,
    `| --- | ${titles.map(() => '---').join(' | ')} |`,
    ...rows,
    '',
    ...notes.map((n, i) => `${i + 1}. ${n.replace(/\|/g, '\\|')}`),
    '',
  ];
  writeFileSync(new URL('docs/peers.md', root), md.join('\n'));
  process.stdout.write('docs/peers.md written\n');
});
