#!/usr/bin/env node
// The floor under the CLI's start-up (issue 21, item 3): what a yargs CLI
// costs before it does anything, beside Node's own floor, in one run. The
// target there is "CLI spawn → first Metadata ≤ `node -e 0` + 15 ms"; this
// shows how much of those 15 ms yargs alone takes.
//
// Each case is a fresh process that prints performance.now() (ms since its
// process began) when its own code runs, so spawn and exit are not counted:
//
//   node                 `node -e`: the first line of user code
//   launcher, empty      kafkaesque's launcher (dist/kafkaesque.cjs, with its V8
//                        code cache) running a bundle that only prints
//   launcher, yargs      the same launcher running a yargs CLI shaped like ours:
//                        `start` with 60 options and a second command, bundled as
//                        scripts/bundle-cli.mjs bundles ours; printed in the handler
//
//   npm run build && node bench/cli-floor.mjs [--rounds 31]
//
// Built into bench/.ref/cli-floor/ (git-ignored). Numbers, never assertions.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { median } from './lib/stats.mjs';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '31' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds needs a positive whole number, got ${values.rounds}`);

const dir = path.join(repo, 'bench', '.ref', 'cli-floor');
const print = "process.stdout.write(performance.now().toFixed(2));";
const yargsCli = `import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
const options = {};
for (let i = 0; i < 60; i++) options['option-' + i] = { type: i % 3 ? 'string' : 'number', describe: 'option number ' + i };
yargs(hideBin(process.argv))
  .scriptName('floor')
  .detectLocale(false)
  .command('start', 'start it', (y) => y.options(options), () => { ${print} })
  .command('status', 'show it', () => {}, () => {})
  .demandCommand(1)
  .strict()
  .version('1.0.0')
  .help()
  .parseAsync();
`;

/** A folder with the launcher and, beside it as cli.cjs (the name it loads), this entry bundled. */
async function launcherWith(name, source) {
  const at = path.join(dir, name);
  mkdirSync(at, { recursive: true });
  writeFileSync(path.join(at, 'entry.mjs'), source);
  await build({
    entryPoints: [path.join(at, 'entry.mjs')],
    outfile: path.join(at, 'cli.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    alias: { 'string-width': 'fast-string-width' },
    define: { 'import.meta.url': '__moduleUrl' },
    banner: { js: "var __moduleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
  copyFileSync(path.join(repo, 'dist', 'kafkaesque.cjs'), path.join(at, 'launcher.cjs'));
  return path.join(at, 'launcher.cjs');
}

const cases = {
  'node -e (first user line)': ['-e', print],
  'launcher, empty bundle': [await launcherWith('empty', print), 'start'],
  'launcher, yargs with a 60-option command': [await launcherWith('yargs', yargsCli), 'start', '--option-1', 'x'],
};
// Node 20 reads NODE_EXTRA_CA_CERTS at every start (~40 ms): not part of any floor here.
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
const run = (args) => {
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const ms = Number(r.stdout);
  if (r.status !== 0 || !Number.isFinite(ms)) throw new Error(`${args.join(' ')}: exit ${r.status}, printed ${JSON.stringify(r.stdout)} ${r.stderr}`);
  return ms;
};
for (const args of Object.values(cases)) run(args); // writes the launchers' code caches
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  const order = Object.entries(cases);
  if (r % 2) order.reverse();
  for (const [name, args] of order) times[name].push(run(args));
}
const floor = median(times['node -e (first user line)']);
console.log(`CLI floor, Node ${process.version}, ${rounds} interleaved rounds: ms from process start to the case's own code, median (least)\n`);
console.log('| case | ms | over node |\n|---|---:|---:|');
for (const [name, t] of Object.entries(times)) console.log(`| ${name} | ${median(t).toFixed(1)} (${Math.min(...t).toFixed(1)}) | ${(median(t) - floor).toFixed(1)} |`);
