// Where the docs' samples run: one directory and one shell session per doc,
// as a reader following it in a terminal. The directory holds what a project
// that installed kafkaesque would (node_modules/kafkaesque, its bin, kafkajs, @platformatic/kafka,
// and the test runners jest and vitest),
// a `dist` link so `node dist/cli.js` works as from a checkout, and the
// fixture files the docs name as the reader's own. Shell blocks run one
// after another in bash, each carrying the environment and working
// directory the previous one left; processes they start in the background
// live until the doc is done, then their process groups are stopped.
import { spawn } from 'node:child_process';
import { cpSync, createWriteStream, mkdirSync, readFileSync, symlinkSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { join, delimiter } from 'node:path';
import { transformSync } from 'esbuild';

export interface RunResult {
  code: number | null;
  /** Still running when the time was up (then stopped). */
  timedOut: boolean;
  output: string;
}

/** What `kafkaesque start` prints once it serves (text or --json). */
const READY_LINE = /^kafkaesque: .*\bready\b|^\{"bootstrap":/m;

const realCurl = (process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'curl')).find((p) => existsSync(p)) ?? '/usr/bin/curl';

export class DocSession {
  readonly dir: string;
  private readonly state: string;
  private readonly groups = new Set<number>();
  private blocks = 0;

  constructor(
    private readonly repo: string,
    parent: string,
    name: string,
    private readonly env: Record<string, string>,
  ) {
    this.dir = join(parent, name);
    this.state = join(parent, `${name}.state`);
    mkdirSync(this.dir, { recursive: true });
    mkdirSync(this.state, { recursive: true });
    cpSync(join(repo, 'test/docs/fixtures'), this.dir, { recursive: true, filter: (src) => !src.endsWith('README.md') });
    writeFileSync(join(this.dir, 'package.json'), JSON.stringify({ name: 'docs-reader', private: true, type: 'module' }));
    const modules = join(this.dir, 'node_modules');
    mkdirSync(join(modules, '.bin'), { recursive: true });
    symlinkSync(repo, join(modules, 'kafkaesque'));
    for (const dep of ['kafkajs', '@platformatic', 'jest', 'vitest', '@swc']) symlinkSync(join(repo, 'node_modules', dep), join(modules, dep));
    // The command npm would link: package.json's bin.
    const command = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { bin: { kafkaesque: string } }).bin.kafkaesque;
    symlinkSync(join(repo, command), join(modules, '.bin/kafkaesque'));
    symlinkSync(join(repo, 'node_modules/jest/bin/jest.js'), join(modules, '.bin/jest'));
    symlinkSync(join(repo, 'node_modules/vitest/vitest.mjs'), join(modules, '.bin/vitest'));
    symlinkSync(join(repo, 'dist'), join(this.dir, 'dist'));
    // `kafkaesque` on PATH, and a curl that fails where a sample must not get an answer.
    const bin = join(this.state, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'kafkaesque'), `#!/bin/sh\nexec node "${join(repo, command)}" "$@"\n`);
    writeFileSync(
      join(bin, 'curl'),
      [
        '#!/usr/bin/env bash',
        '# The real curl; a sample fails on a server error, a method the route lacks, or a route that does not exist.',
        'body=$(mktemp)',
        `code=$("${realCurl}" -o "$body" -w '%{http_code}' "$@") || { rc=$?; cat "$body"; exit $rc; }`,
        'cat "$body"',
        'case "$code" in 5??|405) echo "curl: HTTP $code" >&2; exit 22;; esac',
        'if grep -q \'"unknown_route"\' "$body"; then echo "curl: unknown route" >&2; exit 22; fi',
      ].join('\n'),
    );
    chmodSync(join(bin, 'kafkaesque'), 0o755);
    chmodSync(join(bin, 'curl'), 0o755);
    this.env = { ...env, PATH: `${bin}${delimiter}${env.PATH ?? process.env.PATH}`, HOME: env.HOME ?? process.env.HOME ?? this.dir };
    writeFileSync(join(this.state, 'env.sh'), '');
    writeFileSync(join(this.state, 'pwd'), this.dir);
  }

  /**
   * Runs shell code in the session: the environment and directory of the
   * previous block, `set -e -o pipefail`; on success the session takes the
   * environment and directory it leaves. Background processes stay.
   */
  async sh(code: string, timeoutMs = 20_000, opts: { keep?: boolean; untilStopped?: number } = {}): Promise<RunResult> {
    const n = ++this.blocks;
    const script = join(this.state, `block-${n}.sh`);
    const keep = opts.keep ?? true;
    writeFileSync(
      script,
      [
        `source "${join(this.state, 'env.sh')}"`,
        `cd "$(cat "${join(this.state, 'pwd')}")"`,
        'set -e -o pipefail',
        code,
        keep ? `export -p | grep -v -E '^declare -x (BASHOPTS|SHELLOPTS|BASH_VERSINFO|EUID|PPID|UID)=' > "${join(this.state, 'env.next.sh')}" && pwd > "${join(this.state, 'pwd.next')}"` : '',
      ].join('\n'),
    );
    const result = await this.spawn('bash', [script], opts.untilStopped ?? timeoutMs, join(this.state, `block-${n}.out`), opts.untilStopped !== undefined);
    if (keep && result.code === 0) {
      writeFileSync(join(this.state, 'env.sh'), readFileSync(join(this.state, 'env.next.sh')));
      writeFileSync(join(this.state, 'pwd'), readFileSync(join(this.state, 'pwd.next')));
    }
    return result;
  }

  /**
   * Runs a js or ts block as an ES module in the session's directory, after
   * prelude.mjs (the names a fragment may use without declaring them).
   */
  async module(code: string, lang: string, timeoutMs = 20_000): Promise<RunResult> {
    const n = ++this.blocks;
    const js = transformSync(code, { loader: lang.startsWith('t') ? 'ts' : 'js', format: 'esm', target: 'es2022' }).code;
    writeFileSync(join(this.dir, `sample-${n}.mjs`), js);
    const main = `import ${JSON.stringify(join(this.repo, 'test/docs/prelude.mjs'))};\nawait import('./sample-${n}.mjs');\nawait globalThis.__sampleDone();\n`;
    writeFileSync(join(this.dir, `run-${n}.mjs`), main);
    return this.spawn('node', [`run-${n}.mjs`], timeoutMs, join(this.state, `module-${n}.out`), false);
  }

  /** The process groups of the session's background processes are stopped. */
  async close(): Promise<void> {
    for (const pgid of this.groups) signal(pgid, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    for (const pgid of this.groups) signal(pgid, 'SIGKILL');
    this.groups.clear();
  }

  private spawn(cmd: string, args: string[], timeoutMs: number, outFile: string, untilStopped: boolean): Promise<RunResult> {
    // A server that serves until stopped has proved itself once it prints its ready line: no need to wait out the time.
    const child = spawn(cmd, args, { cwd: this.dir, env: this.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = createWriteStream(outFile);
    let seen = '';
    const onOutput = (chunk: Buffer) => {
      out.write(chunk);
      seen += chunk.toString();
      if (untilStopped && READY_LINE.test(seen)) {
        clearTimeout(timer);
        stopAsTimedOut();
      }
    };
    child.stdout!.on('data', onOutput);
    child.stderr!.on('data', onOutput);
    if (child.pid !== undefined) this.groups.add(child.pid);
    let timer: NodeJS.Timeout;
    let stopAsTimedOut: () => void = () => {};
    return new Promise((resolve) => {
      stopAsTimedOut = () => {
        signal(child.pid!, 'SIGTERM');
        setTimeout(() => signal(child.pid!, 'SIGKILL'), 500).unref();
        done(null, true);
      };
      timer = setTimeout(stopAsTimedOut, timeoutMs);
      const done = (code: number | null, timedOut: boolean) => {
        clearTimeout(timer);
        child.removeAllListeners();
        child.stdout!.removeListener('data', onOutput);
        child.stderr!.removeListener('data', onOutput);
        out.end();
        // A block that timed out is stopped with what it started; otherwise only at close().
        if (timedOut || untilStopped) this.groups.delete(child.pid!);
        resolve({ code, timedOut, output: seen });
      };
      child.on('exit', (code, sig) => done(code ?? (sig ? 128 : null), false));
      child.on('error', (err) => {
        writeFileSync(outFile, String(err), { flag: 'a' });
        done(127, false);
      });
    });
  }
}

function signal(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig);
  } catch {
    // already gone
  }
}
