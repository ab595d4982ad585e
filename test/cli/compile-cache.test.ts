// The built CLI's compile cache (src/cli-launcher.ts): written on a first
// run, never trusted from a folder others can write, harmless when corrupt,
// off with KAFKAESQUE_COMPILE_CACHE=0. Each test gives the CLI a temporary
// directory of its own (TMPDIR), so the user's real cache is not touched.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const uid = process.getuid?.() ?? 'user';
let tmp: string;
let cacheDir: string;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'kafkaesque-cc-'));
  cacheDir = join(tmp, `kafkaesque-compile-cache-${uid}`);
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}, launcher = 'dist/cli.js'): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [launcher, ...args], { env: { PATH: process.env.PATH, TMPDIR: tmp, ...env }, timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}
const caches = () => readdirSync(cacheDir).filter((f) => f.endsWith('.bin'));

test('a first run writes the cache; later runs use it and still answer the same', async () => {
  expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  const [file] = caches();
  expect(file).toMatch(new RegExp(`^cli-${process.version}-${process.arch}-\\d+-\\d+\\.bin$`));
  const before = readFileSync(join(cacheDir, file!));
  expect(before.length).toBeGreaterThan(1000);
  expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  // Accepted, so not rewritten.
  expect(readFileSync(join(cacheDir, file!)).equals(before)).toBe(true);
});

test('a corrupt cache is refused by V8 and replaced; the command still works', async () => {
  await cli(['--version']);
  const [file] = caches();
  writeFileSync(join(cacheDir, file!), Buffer.alloc(4096, 0xab));
  const r = await cli(['--bogus']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('Name a command');
  expect(readFileSync(join(cacheDir, file!)).equals(Buffer.alloc(4096, 0xab))).toBe(false);
});

test("one cache per command, since each holds what its writer compiled; the bin (CommonJS) and dist/cli.js (ES module) share them", async () => {
  expect((await cli(['--version'], {}, 'dist/kafkaesque.cjs')).stdout).toBe(`${version}\n`);
  const r = await cli(['start', '--bogus']);
  expect(r.stderr).toContain('Unknown argument: bogus');
  expect(caches().map((f) => f.replace(/^cli-.*-\d+-\d+/, '')).sort()).toEqual(['-start.bin', '.bin']);
  const before = caches().map((f) => readFileSync(join(cacheDir, f)));
  expect((await cli(['start', '--bogus'], {}, 'dist/kafkaesque.cjs')).code).toBe(2);
  // Accepted by the other launcher, so not rewritten.
  expect(caches().map((f) => readFileSync(join(cacheDir, f)))).toEqual(before);
});

test('a cache folder that others can write is not used', async () => {
  if (typeof process.getuid !== 'function') return; // the ownership check is POSIX-only
  mkdirSync(cacheDir, { mode: 0o777 });
  chmodSync(cacheDir, 0o777);
  expect((await cli(['--version'])).code).toBe(0);
  expect(caches()).toEqual([]);
});

test('KAFKAESQUE_COMPILE_CACHE=0 turns it off', async () => {
  expect((await cli(['--version'], { KAFKAESQUE_COMPILE_CACHE: '0' })).code).toBe(0);
  expect(() => caches()).toThrow(); // the folder was never made
});
