// franz-go's kfake, a peer that bench/ measures beside kafkaesque: the Go
// program in bench/kfake/ (pinned in its go.mod and go.sum), built on first
// use into bench/.ref/bin/kfake-broker-<hash> (git-ignored), where <hash> is
// taken from those sources, so an edit of main.go or a new pin builds anew.
//
//   import { kfakePath } from './lib/kfake.mjs'
//   const bin = kfakePath()      // builds it if absent (~30 s with an empty module cache)
//
// Needs Go (1.26) and the Go module proxy for franz-go's modules; nothing is
// fetched but the modules go.sum names. Run `node bench/lib/kfake.mjs` to
// build and print the path; KAFKAESQUE_KFAKE=/path/to/binary uses another.

import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { acquireLock, binDir, isExecutable, refDir, ReferenceBuildError } from '../reference.mjs';

const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const kfakeSrc = path.join(benchDir, 'kfake');
const SOURCES = ['main.go', 'go.mod', 'go.sum'];
const BUILD_TIMEOUT_MS = 5 * 60_000;

/** bench/.ref/bin/kfake-broker-<first 12 hex of sha256 over the sources>. */
export function kfakeBinFor(src = kfakeSrc) {
  const hash = crypto.createHash('sha256');
  for (const f of SOURCES) hash.update(`${f}\0`).update(fs.readFileSync(path.join(src, f)));
  return path.join(binDir, `kfake-broker-${hash.digest('hex').slice(0, 12)}`);
}

/** Build the kfake broker; throws ReferenceBuildError with go's output on failure. */
export function buildKfake({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0) {
    throw new ReferenceBuildError('cannot build kfake: no `go` on PATH (Go 1.26 builds bench/kfake)');
  }
  const bin = kfakeBinFor();
  fs.mkdirSync(binDir, { recursive: true });
  const lockDir = path.join(refDir, '.kfake-build-lock');
  if (!acquireLock(lockDir, bin)) return bin;
  try {
    const tmp = `${bin}.tmp-${process.pid}`;
    log(`building kfake (bench/kfake, franz-go's modules from the Go module proxy) -> ${path.relative(process.cwd(), bin)}`);
    const started = Date.now();
    // -mod=readonly: the pins in go.mod/go.sum are what gets built, or the build fails.
    const res = spawnSync('go', ['build', '-mod=readonly', '-trimpath', '-o', tmp, '.'], {
      cwd: kfakeSrc,
      encoding: 'utf8',
      timeout: BUILD_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      env: { ...process.env, GOFLAGS: '-buildvcs=false' },
    });
    if (res.status !== 0 || !isExecutable(tmp)) {
      fs.rmSync(tmp, { force: true });
      const why = res.error ? res.error.message : res.signal ? `killed by ${res.signal}` : `exit code ${res.status}`;
      throw new ReferenceBuildError(`building kfake failed (${why}):\n${`${res.stdout}${res.stderr}`.trim().slice(-3000)}`);
    }
    fs.renameSync(tmp, bin);
    log(`built kfake in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return bin;
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/** Path of the kfake broker binary, building it first if it is absent. */
export function kfakePath(options = {}) {
  const override = process.env.KAFKAESQUE_KFAKE;
  if (override) {
    if (!isExecutable(override)) throw new ReferenceBuildError(`KAFKAESQUE_KFAKE=${override} is not an executable file`);
    return override;
  }
  const bin = kfakeBinFor();
  return isExecutable(bin) ? bin : buildKfake(options);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(kfakePath());
  } catch (err) {
    console.error(err instanceof ReferenceBuildError ? err.message : err);
    process.exit(1);
  }
}
