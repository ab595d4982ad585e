// `kafkaesque start --tls` from the built CLI (dist/cli.js, which `npm test`
// builds first): the CA goes to --tls-ca-out (or a temp file named in the
// ready line) and a client trusting it gets through; --tls-cert/--tls-key
// serve a given certificate; --tls-client-auth asks clients for
// certificates and writes a client certificate the generated CA signed;
// a missing file is named in the error.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { generate } from 'selfsigned';

const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-tls-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ready {
  bootstrap: string;
  tlsCa?: string;
  tlsClientCert?: string;
  tlsClientKey?: string;
}

/** Runs `start` until the test is done with it; the child is killed whatever happens. */
async function withStart(args: string[], body: (ready: Ready) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ['dist/cli.js', 'start', '--brokers', '1', '--port', '0', '--json', '--log-level', 'silent', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    let out = '';
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c));
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => (out += c).includes('\n') && resolve(JSON.parse(out)));
      child.on('exit', (code) => reject(new Error(`start exited ${code}: ${err}`)));
    });
    await body(ready);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    clearTimeout(killer);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

async function listTopicsOverTls(bootstrap: string, ca: string, identity?: { cert: string; key: string }): Promise<string[]> {
  const admin = new Kafka({ brokers: [bootstrap], ssl: { ca: [ca], ...identity }, logLevel: logLevel.NOTHING, retry: { retries: 1 }, connectionTimeout: 3000 }).admin();
  await admin.connect();
  try {
    return await admin.listTopics();
  } finally {
    await admin.disconnect();
  }
}

test('start --tls --tls-ca-out writes the CA that clients trust', async () => {
  const caFile = join(dir, 'ca.pem');
  await withStart(['--tls', '--tls-ca-out', caFile, '--topic', 'secure'], async (ready) => {
    expect(ready.tlsCa).toBe(caFile);
    expect(await listTopicsOverTls(ready.bootstrap, readFileSync(caFile, 'utf8'))).toContain('secure');
  });
}, 40_000);

test('start --tls without --tls-ca-out names the CA file it wrote, and removes it at stop', async () => {
  let caFile = '';
  await withStart(['--tls', '--topic', 'secure'], async (ready) => {
    caFile = ready.tlsCa!;
    expect(caFile && existsSync(caFile)).toBe(true);
    expect(await listTopicsOverTls(ready.bootstrap, readFileSync(caFile, 'utf8'))).toContain('secure');
  });
  expect(existsSync(caFile)).toBe(false);
}, 40_000);

test('start --tls-cert --tls-key --tls-ca serves the given certificate', async () => {
  const ca = await generate([{ name: 'commonName', value: 'cli test CA' }], { keyType: 'ec', algorithm: 'sha256', extensions: [{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, digitalSignature: true }] });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256', ca: { key: ca.private, cert: ca.cert }, extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }] });
  writeFileSync(join(dir, 'server.pem'), server.cert);
  writeFileSync(join(dir, 'server.key'), server.private);
  writeFileSync(join(dir, 'given-ca.pem'), ca.cert);
  const out = join(dir, 'out-ca.pem');
  await withStart(['--tls-cert', join(dir, 'server.pem'), '--tls-key', join(dir, 'server.key'), '--tls-ca', join(dir, 'given-ca.pem'), '--tls-ca-out', out, '--topic', 'given'], async (ready) => {
    expect(readFileSync(out, 'utf8')).toBe(ca.cert);
    expect(await listTopicsOverTls(ready.bootstrap, ca.cert)).toContain('given');
  });
}, 40_000);

test('start --tls-client-auth required writes a client certificate the CA signed; a client without one is refused', async () => {
  let written: string[] = [];
  await withStart(['--tls-client-auth', 'required', '--topic', 'mutual'], async (ready) => {
    written = [ready.tlsCa!, ready.tlsClientCert!, ready.tlsClientKey!];
    for (const f of written) expect(existsSync(f)).toBe(true);
    const ca = readFileSync(ready.tlsCa!, 'utf8');
    const identity = { cert: readFileSync(ready.tlsClientCert!, 'utf8'), key: readFileSync(ready.tlsClientKey!, 'utf8') };
    expect(await listTopicsOverTls(ready.bootstrap, ca, identity)).toContain('mutual');
    await expect(listTopicsOverTls(ready.bootstrap, ca)).rejects.toThrow(/certificate required/);
  });
  for (const f of written) expect(existsSync(f)).toBe(false);
}, 40_000);

test('--tls-client-ca without --tls-client-auth is a usage error (exit 2), naming both flags', async () => {
  const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(process.execPath, ['dist/cli.js', 'start', '--brokers', '1', '--port', '0', '--log-level', 'silent', '--tls', '--tls-client-ca', join(dir, 'any.pem')], { timeout: 20_000 }, (err, _out, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stderr }),
    ),
  );
  expect(r).toEqual({ code: 2, stderr: 'kafkaesque: --tls-client-ca checks client certificates: it needs --tls-client-auth required or requested\nRun with --help for usage.\n' });
});

test('a missing certificate file stops the start with exit 2 (usage) and names the file', async () => {
  const missing = join(dir, 'nope.pem');
  const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(process.execPath, ['dist/cli.js', 'start', '--brokers', '1', '--port', '0', '--log-level', 'silent', '--tls-cert', missing, '--tls-key', missing], { timeout: 20_000 }, (err, _out, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stderr }),
    ),
  );
  expect(r).toEqual({ code: 2, stderr: `kafkaesque: --tls-cert ${missing}: ENOENT\nRun with --help for usage.\n` });
});
