#!/usr/bin/env node
// The `kafkaesque` command: runs the bundled CLI (dist/cli.cjs, built by
// scripts/bundle-cli.mjs) with V8's code cache, so that the second and later
// runs skip parsing and compiling the ~1 MB bundle (about 50 ms of each start
// on a small CI machine). Node 22 has module.enableCompileCache() for this;
// Node 20 does not, hence vm.Script and its cachedData. The cache lives in a
// per-user folder under the temporary directory, is keyed by the bundle's
// size, mtime, the Node version and the command (the last 16 are kept), and is written once
// a run has compiled what it needs (after a second, or at exit if sooner).
// Anything wrong with it only costs the cache: V8 refuses data that does not
// match, and every error here is ignored. KAFKAESQUE_COMPILE_CACHE=0 turns it off.
//
// Built twice: dist/kafkaesque.cjs, the package's bin, is CommonJS because an
// ES module main costs Node ~10 ms more to start (its module loader); and
// dist/cli.js, the same as an ES module, for `node dist/cli.js` in a
// checkout. Built-ins by process.getBuiltinModule, not import: an ES import
// of one builds its namespace from every export.
import type { Stats } from 'node:fs';

const fs = process.getBuiltinModule('node:fs');
const os = process.getBuiltinModule('node:os');
const path = process.getBuiltinModule('node:path');
const vm = process.getBuiltinModule('node:vm');
const { createRequire, Module } = process.getBuiltinModule('node:module');
const { isAscii } = process.getBuiltinModule('node:buffer');
const { fileURLToPath } = process.getBuiltinModule('node:url');

const bundle = fileURLToPath(new URL('./cli.cjs', import.meta.url));

/** A folder only this user can write, or null (then no cache). */
function cacheDir(): string | null {
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const dir = path.join(os.tmpdir(), `kafkaesque-compile-cache-${uid ?? 'user'}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.statSync(dir);
    // Code loaded from here runs as this user: refuse a folder someone else owns or can write.
    if (uid !== null && (st.uid !== uid || (st.mode & 0o022) !== 0)) return null;
    return dir;
  } catch {
    return null;
  }
}

/**
 * One cache per command (`start`, `status`…): a cache holds what the run that
 * wrote it compiled, so one written by `kafkaesque --version` left `start`
 * compiling most of its code at every run (~15 ms).
 */
function cacheFile(source: Stats): string | null {
  if (process.env.KAFKAESQUE_COMPILE_CACHE === '0') return null;
  const dir = cacheDir();
  if (!dir) return null;
  const verb = /^[a-z][a-z-]{0,30}$/.test(process.argv[2] ?? '') ? `-${process.argv[2]}` : '';
  return path.join(dir, `cli-${process.version}-${process.arch}-${source.size}-${Math.trunc(source.mtimeMs)}${verb}.bin`);
}

function readCache(file: string | null): Buffer | undefined {
  if (!file) return undefined;
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Caches kept: one per build, Node version and command, so several installs side by side do not evict each other. */
const KEEP = 16;

/** Writes the cache atomically, then drops all but the KEEP most recent. */
function writeCache(file: string, data: Buffer): void {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, file);
    const dir = path.dirname(file);
    const caches = fs
      .readdirSync(dir)
      .filter((name) => name.startsWith('cli-') && name.endsWith('.bin'))
      .map((name) => ({ name, at: fs.statSync(path.join(dir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const old of caches.slice(KEEP)) fs.rmSync(path.join(dir, old.name), { force: true });
  } catch {
    /* no cache this time */
  }
}

const stat = fs.statSync(bundle);
const file = cacheFile(stat);
const cachedData = readCache(file);
// The bundle is ASCII (scripts/bundle-cli.mjs sees to it), and decoding 1.3 MB
// as UTF-8 took ~4 ms, as Latin-1 ~1 ms; the same string either way.
const bytes = fs.readFileSync(bundle);
let source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
if (source.startsWith('#!')) source = `//${source.slice(2)}`;
const script = new vm.Script(Module.wrap(source), {
  filename: bundle,
  cachedData,
});

if (file && (!cachedData || script.cachedDataRejected)) {
  let written = false;
  const save = () => {
    if (written) return;
    written = true;
    writeCache(file, script.createCachedData());
  };
  // Late enough that start-up has compiled what it runs; at exit for short commands.
  setTimeout(save, 1000).unref();
  process.once('exit', save);
}

const module = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
