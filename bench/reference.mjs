// The reference broker: librdkafka's mock cluster, run as a stand-alone
// process (see reference/README.md). Benchmarks report kafkaesque's
// figures as a ratio to it, measured in the same run.
//
//   import { mockClusterPath } from './reference.mjs'
//   const bin = mockClusterPath()   // bench/.ref/bin/mock-cluster-new
//
// If the binary is absent it is built: bench/reference (vendored from the
// project's ../shared/reference; override with KAFKAESQUE_REFERENCE_DIR) is
// copied to bench/.ref/reference (so a read-only override still builds)
// and `build.sh --new` is run there with OUT_DIR=bench/.ref/bin. That build
// takes librdkafka's source from the npm package node-rdkafka; nothing of it
// is kept outside bench/.ref/, which is git-ignored.
//
// Needs (Debian): librdkafka-dev build-essential pkg-config zlib1g-dev, plus
// npm and openssl. Run `node bench/reference.mjs` to build and print the path.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const refDir = path.join(benchDir, '.ref');
export const binDir = path.join(refDir, 'bin');
export const mockBin = path.join(binDir, 'mock-cluster-new');

const BUILD_TIMEOUT_MS = 10 * 60_000;
const LOCK_STALE_MS = 15 * 60_000;
const APT_HINT =
  'apt-get update && apt-get install -y --no-install-recommends librdkafka-dev build-essential pkg-config zlib1g-dev';

export class ReferenceBuildError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ReferenceBuildError';
  }
}

export function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function have(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function sourceDir() {
  const candidates = [
    process.env.KAFKAESQUE_REFERENCE_DIR,
    path.join(benchDir, 'reference'),
  ].filter(Boolean);
  for (const dir of candidates) {
    if (fs.existsSync(path.join(dir, 'build.sh')) && fs.existsSync(path.join(dir, 'mock-cluster.c'))) {
      return dir;
    }
  }
  throw new ReferenceBuildError(
    `cannot build the reference broker: no build.sh + mock-cluster.c in ${candidates.join(' or ')} ` +
      '(set KAFKAESQUE_REFERENCE_DIR to the folder holding them)',
  );
}

function checkPrerequisites() {
  const missing = ['cc', 'make', 'npm', 'openssl', 'tar'].filter((c) => !have(c));
  const rdkafka = spawnSync('pkg-config', ['--exists', 'rdkafka'], { stdio: 'ignore' }).status === 0 ||
    fs.existsSync('/usr/include/librdkafka/rdkafka.h');
  if (!rdkafka) missing.push('librdkafka-dev');
  if (!fs.existsSync('/usr/include/zlib.h')) missing.push('zlib1g-dev');
  if (missing.length) {
    throw new ReferenceBuildError(
      `cannot build the reference broker, missing: ${missing.join(', ')}. Install with:\n  ${APT_HINT}`,
    );
  }
}

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Take a build lock (a folder under bench/.ref/); returns false if another
 * process built `product` meanwhile. bench/lib/kfake.mjs takes one too.
 */
export function acquireLock(lockDir, product = mockBin) {
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      return true;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    if (isExecutable(product)) return false;
    try {
      if (Date.now() - fs.statSync(lockDir).mtimeMs > LOCK_STALE_MS) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
    } catch {
      continue;
    }
    if (Date.now() > deadline) {
      throw new ReferenceBuildError(`timed out waiting for another build of ${path.basename(product)} (${lockDir})`);
    }
    sleepSync(500);
  }
}

/**
 * Build bench/.ref/bin/mock-cluster-new (and mock-cluster). Throws
 * ReferenceBuildError with the reason and the build log's tail on failure.
 */
export function buildMockCluster({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const src = sourceDir();
  checkPrerequisites();
  fs.mkdirSync(refDir, { recursive: true });
  const lockDir = path.join(refDir, '.build-lock');
  if (!acquireLock(lockDir)) return mockBin;
  try {
    const workRef = path.join(refDir, 'reference');
    fs.rmSync(workRef, { recursive: true, force: true });
    fs.cpSync(src, workRef, { recursive: true });
    for (const f of fs.readdirSync(workRef)) fs.chmodSync(path.join(workRef, f), 0o755);
    fs.chmodSync(workRef, 0o755);

    // Build into a fresh folder, then move into place, so a reader never sees
    // a half-written binary.
    const outTmp = fs.mkdtempSync(path.join(refDir, 'bin-'));
    const logFile = path.join(refDir, 'build.log');
    log(`building the reference broker (librdkafka mock cluster, ~1 min) — log: ${logFile}`);
    const started = Date.now();
    const fd = fs.openSync(logFile, 'w');
    const res = spawnSync('sh', [path.join(workRef, 'build.sh'), '--new'], {
      cwd: refDir,
      env: { ...process.env, OUT_DIR: outTmp },
      stdio: ['ignore', fd, fd],
      timeout: BUILD_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    fs.closeSync(fd);
    const built = path.join(outTmp, 'mock-cluster-new');
    if (res.status !== 0 || !isExecutable(built)) {
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n');
      fs.rmSync(outTmp, { recursive: true, force: true });
      const why = res.error
        ? res.error.message
        : res.signal
          ? `killed by ${res.signal} (timeout ${BUILD_TIMEOUT_MS / 1000}s?)`
          : `exit code ${res.status}`;
      throw new ReferenceBuildError(
        `building the reference broker failed (${why}). It needs librdkafka-dev, build-essential, ` +
          `pkg-config, zlib1g-dev, npm and openssl, and the npm registry for node-rdkafka's source.\n` +
          `Last lines of ${logFile}:\n${tail}`,
      );
    }
    fs.mkdirSync(binDir, { recursive: true });
    for (const f of fs.readdirSync(outTmp)) fs.renameSync(path.join(outTmp, f), path.join(binDir, f));
    fs.rmSync(outTmp, { recursive: true, force: true });
    log(`built ${mockBin} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return mockBin;
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Path of bin/mock-cluster-new, building it first if it is absent.
 * Set KAFKAESQUE_MOCK_CLUSTER to use a binary elsewhere.
 */
export function mockClusterPath(options = {}) {
  const override = process.env.KAFKAESQUE_MOCK_CLUSTER;
  if (override) {
    if (!isExecutable(override)) {
      throw new ReferenceBuildError(`KAFKAESQUE_MOCK_CLUSTER=${override} is not an executable file`);
    }
    return override;
  }
  if (isExecutable(mockBin)) return mockBin;
  return buildMockCluster(options);
}

export default mockClusterPath;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv.includes('--rebuild')) buildMockCluster();
    console.log(mockClusterPath());
  } catch (err) {
    console.error(err instanceof ReferenceBuildError ? err.message : err);
    process.exit(1);
  }
}
