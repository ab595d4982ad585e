#!/usr/bin/env node
// `npm run bench`: the broker benchmark with sensible defaults, bounded in time.
//
//   npm run bench                      # mock, plus ours when dist/cli.js exists (~1 min)
//   npm run bench -- --quick           # smaller variant (~15 s)
//   npm run bench -- --ours            # fail if ours (dist/cli.js) is missing
//   npm run bench -- --no-ours         # the mock alone
//   npm run bench -- --help            # every option (they are throughput.mjs's)
//
// It makes sure the reference broker is built (bench/reference.mjs), then
// runs bench/throughput.mjs in its own process group with a hard time bound
// (the whole group, brokers included, is SIGKILLed if it overruns), and
// prints the method and a table of medians with ours/mock ratios. The full
// results are kept in bench/.ref/last-run.json (git-ignored).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { mockClusterPath, ReferenceBuildError } from './reference.mjs';
import { DEFAULTS, METHOD, formatTable } from './throughput.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const resultFile = path.join(benchDir, '.ref', 'last-run.json');

const args = process.argv.slice(2);
const help = args.includes('--help') || args.includes('-h');

if (!help && !args.some((a) => a === '--mock' || a.startsWith('--mock='))) {
  try {
    mockClusterPath();
  } catch (err) {
    console.error(err instanceof ReferenceBuildError ? err.message : err);
    process.exit(1);
  }
}

const timeoutArg = args.findIndex((a) => a === '--timeout' || a.startsWith('--timeout='));
const timeout =
  timeoutArg < 0
    ? DEFAULTS.timeout
    : Number(args[timeoutArg].includes('=') ? args[timeoutArg].split('=')[1] : args[timeoutArg + 1]) || DEFAULTS.timeout;
// throughput.mjs stops starting runs at --timeout and exits itself 30 s past
// it; this is the backstop for a hang.
const hardBoundMs = (timeout + 60) * 1000;

fs.mkdirSync(path.dirname(resultFile), { recursive: true });
fs.rmSync(resultFile, { force: true });
const childArgs = help ? args : [...args, '--json', resultFile, '--quiet'];
const child = spawn(process.execPath, ['--expose-gc', path.join(benchDir, 'throughput.mjs'), ...childArgs], {
  stdio: ['ignore', 'inherit', 'inherit'],
  detached: true, // own process group, so brokers die with it
});

const killGroup = () => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
};
const timer = setTimeout(() => {
  console.error(`bench: no result after ${hardBoundMs / 1000} s; killing process group ${child.pid}`);
  killGroup();
}, hardBoundMs);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    killGroup();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  });
}

child.on('exit', (code, signal) => {
  clearTimeout(timer);
  killGroup(); // anything it left behind
  if (help) process.exit(code ?? 1);
  if (!fs.existsSync(resultFile)) {
    console.error(`bench: throughput.mjs ended (${signal ?? `code ${code}`}) without results`);
    process.exit(code || 1);
  }
  const result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  // --json FILE given by the user: the child wrote ours (the later flag); copy it.
  const j = args.findIndex((a) => a === '--json' || a.startsWith('--json='));
  const userJson = j < 0 ? null : args[j].includes('=') ? args[j].slice('--json='.length) : args[j + 1];
  if (userJson === '-') process.stdout.write(`${JSON.stringify(result)}\n`);
  else if (userJson) fs.copyFileSync(resultFile, userJson);
  console.log();
  console.log(METHOD);
  console.log();
  console.log(formatTable(result));
  console.log();
  console.log(`full results: ${path.relative(process.cwd(), resultFile)}`);
  process.exit(code ?? 1);
});
