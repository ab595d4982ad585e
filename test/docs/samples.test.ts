// Every code sample in docs/ runs (docs/examples/ has its own suite). For
// each fenced block of each docs/**/*.md, by its language or by the marker
// written right before it (`<!-- sample: KIND ... -->`):
//
//   sh, bash         run in the doc's shell session (session.ts), with the
//                    built CLI on PATH as `kafkaesque` and KAFKAESQUE_URL set
//                    to a cluster this runner started (reset for each doc)
//   js, ts           run as an ES module after prelude.mjs; 'kafkaesque'
//                    resolves to the repo's dist/
//   json             a preset ({ name, rules, … }) is checked by the preset
//                    validator, a rule ({ action, … }) added to the running
//                    cluster's fault controller as POST /v1/faults would
//
//   until-stopped    sh: each command serves until stopped; it passes when
//                    it prints kafkaesque's ready line, or is still running
//                    after 2 s, or exits 0
//   yaml             parsed as YAML
//   github-actions   a workflow: parsed; its `run` steps run in order as
//   gitlab-ci        the CI would run them (GITHUB_ENV honoured; GitLab's
//                    before_script and script in one shell, after_script in
//                    another), except the steps named in skip="a; b"
//                    (a step is skipped when its command is, or starts
//                    with, one of them: the project's own, like npm test)
//   output           an output listing: not run
//   slow             sh: a test runner's whole run; 90 s to finish instead of 20
//   file PATH        a file of the reader's project: written to PATH (relative
//                    to the doc's directory) for the blocks after it to use
//   not-run (why)    not run, for the reason given
//
// Any other block without a marker fails: a sample either runs or says why not.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { validatePreset } from '../../src/presets/index.js';
import { docSamples, markdownFiles, markerList, type Sample } from './samples.js';
import { DocSession, type RunResult } from './session.js';

const repo = resolve(new URL('../..', import.meta.url).pathname);
const docs = markdownFiles(repo, 'docs', ['docs/examples']);
const work = mkdtempSync(join(tmpdir(), 'kafkaesque-docs-'));
let kafka: RunningCluster;

beforeAll(async () => {
  // Samples run the built package (dist/), as a reader's project would.
  for (const built of ['dist/cli.js', 'dist/index.js']) if (!existsSync(join(repo, built))) throw new Error(`${built} is missing: npm run build first`);
  kafka = await startCluster({ brokers: 3, seed: 11 });
});
afterAll(async () => {
  await kafka.stop();
  if (process.env.KAFKAESQUE_DOCS_KEEP === undefined) rmSync(work, { recursive: true, force: true }); // keep it to look at what ran
});

const SH = new Set(['sh', 'bash', 'shell']);
const MODULE = new Set(['js', 'mjs', 'javascript', 'ts', 'typescript']);

function ok(sample: Sample, r: RunResult): void {
  const where = `${sample.doc}:${sample.line}`;
  if (r.timedOut) throw new Error(`${where}: still running after its time was up\n${r.output}`);
  if (r.code !== 0) throw new Error(`${where}: exited ${r.code}\n${sample.code}\n--- output ---\n${r.output}`);
}

/** The commands of an until-stopped block: one per line, comments and blank lines aside. */
const commands = (code: string) => code.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));

async function runWorkflow(session: DocSession, sample: Sample, kind: 'github-actions' | 'gitlab-ci'): Promise<void> {
  const doc = parseYaml(sample.code) as Record<string, unknown>;
  const skip = new Set(markerList(sample.marker!.args, 'skip'));
  const skipped = new Set<string>();
  /** Runs `code` for the step whose command is `command`, unless the marker skips it. */
  const run = async (command: string, code = command, opts: { keep?: boolean } = {}) => {
    const skipping = [...skip].find((s) => command.trim() === s || command.trim().startsWith(`${s} `));
    if (skipping !== undefined) return void skipped.add(skipping);
    ok(sample, await session.sh(code, 60_000, opts));
  };
  if (kind === 'github-actions') {
    const jobs = Object.entries((doc.jobs ?? {}) as Record<string, { steps?: { run?: string; uses?: string }[] }>);
    expect(jobs.length).toBeGreaterThan(0);
    for (const [, job] of jobs) {
      expect(Array.isArray(job.steps)).toBe(true);
      const githubEnv = join(session.dir, '.github-env');
      writeFileSync(githubEnv, '');
      ok(sample, await session.sh(`export GITHUB_ENV="${githubEnv}" CI=true`));
      for (const step of job.steps!) {
        expect(step.run !== undefined || step.uses !== undefined).toBe(true);
        if (step.run === undefined) continue;
        // As the runner does: each step its own shell; GITHUB_ENV lines become the next steps' environment.
        await run(step.run, `(\n${step.run}\n)\nwhile IFS= read -r line; do [ -n "$line" ] && export "$line"; done < "$GITHUB_ENV"`);
      }
    }
  } else {
    const jobs = Object.entries(doc).filter(([, v]) => typeof v === 'object' && v !== null && 'script' in v) as [string, Record<string, unknown>][];
    expect(jobs.length).toBeGreaterThan(0);
    const lines = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? (v as string[]) : [String(v)]);
    for (const [, job] of jobs) {
      const variables = { ...((doc.variables ?? {}) as Record<string, string>), ...((job.variables ?? {}) as Record<string, string>) };
      const exports = Object.entries(variables).map(([k, v]) => `export ${k}=${JSON.stringify(String(v))}`).join('\n');
      ok(sample, await session.sh(`${exports}\nexport CI=true CI_PROJECT_DIR="$PWD"`));
      // before_script and script share one shell: one session block each line, state carried.
      for (const line of [...lines(job.before_script), ...lines(job.script)]) await run(line);
      // after_script runs in a new shell: only the job's variables, nothing the script exported.
      for (const line of lines(job.after_script)) await run(line, `env -i PATH="$PATH" HOME="$HOME" CI=true bash -e -c ${shellWord(`${exports}\n${line}`)}`, { keep: false });
    }
  }
  expect([...skip].filter((s) => !skipped.has(s))).toEqual([]); // every skip names a real step
}

/** One word for the shell, whatever it holds: JSON quoting broke a line with quotes or a second line. */
const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

describe.each(docs)('%s', (doc) => {
  const samples = docSamples(repo, doc);
  if (samples.length === 0) return; // prose only (e.g. the compatibility table): nothing to run
  let session: DocSession;
  beforeAll(async () => {
    await kafka.reset();
    session = new DocSession(repo, work, doc.replace(/[/.]/g, '_'), { ...(process.env as Record<string, string>), KAFKAESQUE_URL: kafka.controlUrl });
  });
  afterAll(() => session.close());

  test.each(samples.map((s) => [`line ${s.line} (${s.marker?.kind ?? (s.lang || 'no language')})`, s] as const))('%s', async (_, sample) => {
    const kind = sample.marker?.kind;
    switch (kind) {
      case 'output':
        return;
      case 'not-run':
        if (!/^\(.+\)$/.test(sample.marker!.args)) throw new Error(`${doc}:${sample.line}: not-run needs a reason: <!-- sample: not-run (why) -->`);
        return;
      case 'yaml':
        parseYaml(sample.code);
        return;
      case 'slow':
        if (!SH.has(sample.lang)) throw new Error(`${doc}:${sample.line}: slow is for sh blocks`);
        return ok(sample, await session.sh(sample.code, 90_000));
      case 'file': {
        const path = sample.marker!.args.trim();
        if (!/^[\w.-]+(\/[\w.-]+)*$/.test(path) || path.split('/').includes('..')) throw new Error(`${doc}:${sample.line}: file needs a relative path: <!-- sample: file dir/name.js -->`);
        mkdirSync(dirname(join(session.dir, path)), { recursive: true });
        writeFileSync(join(session.dir, path), sample.code + '\n');
        return;
      }
      case 'github-actions':
      case 'gitlab-ci':
        return runWorkflow(session, sample, kind);
      case 'until-stopped': {
        if (!SH.has(sample.lang)) throw new Error(`${doc}:${sample.line}: until-stopped is for sh blocks`);
        for (const command of commands(sample.code)) {
          const r = await session.sh(command, 0, { keep: false, untilStopped: 2000 });
          if (!r.timedOut) ok(sample, r);
        }
        return;
      }
      case undefined:
        break;
      default:
        throw new Error(`${doc}:${sample.line}: unknown sample marker '${kind}'`);
    }
    if (SH.has(sample.lang)) return ok(sample, await session.sh(sample.code));
    if (MODULE.has(sample.lang)) return ok(sample, await session.module(sample.code, sample.lang));
    if (sample.lang === 'json') {
      const value: unknown = JSON.parse(sample.code);
      if (typeof value === 'object' && value !== null && 'rules' in value) return void validatePreset(value, `${doc}:${sample.line}`);
      if (typeof value === 'object' && value !== null && 'action' in value) {
        const rule = kafka.chaos.addRule(value as never);
        kafka.chaos.removeRule(rule.id);
        return;
      }
    }
    throw new Error(
      `${doc}:${sample.line}: a '${sample.lang || 'plain'}' block this runner cannot run; put a marker right before it, e.g. <!-- sample: output --> or <!-- sample: not-run (why) -->`,
    );
  }, 180_000); // each block has its own time limit (session.ts); a workflow runs several
});
