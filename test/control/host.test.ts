// Regression (issue 20, #2): the control API did not check Host, so a
// DNS-rebinding page's same-origin GET (Host: attacker.example:<port>, no
// Origin, from 127.0.0.1) read /v1/cluster with 200. Raw HTTP/1.1 over a
// socket, so that the Host header is exactly what a browser would send.
import { connect } from 'node:net';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { startControlServer, type ControlServer } from '../../src/control/server.js';
import { checkAllowedHosts, hostOf, misdirectedReason } from '../../src/control/host-check.js';
import { silentLogger } from '../../src/logger.js';

interface RawAnswer {
  status: number;
  body: any;
}

/** One request on a fresh connection; resolves to the status line's code and the JSON body. */
function raw(port: number, host: string | null, path = '/v1/cluster', extra = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\n${host === null ? '' : `Host: ${host}\r\n`}${extra}Connection: close\r\n\r\n`));
    socket.on('data', (c) => (data += c));
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]);
      const text = data.slice(data.indexOf('\r\n\r\n') + 4);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      resolve({ status, body });
    });
  });
}

let kafka: RunningCluster;
let port: number;
const servers: ControlServer[] = [];

beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, proxy: false, controlAllowedHosts: ['kafkaesque.test', '.ci.internal'] });
  port = Number(new URL(kafka.controlUrl).port);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await kafka.stop();
});

test('a DNS-rebinding request (Host: attacker.example, no Origin) is refused with 421 and says how to allow the host', async () => {
  const answer = await raw(port, `attacker.example:${port}`);
  expect(answer.status).toBe(421);
  expect(answer.body).toMatchObject({ error: 'misdirected_host', field: 'Host' });
  expect(answer.body.message).toContain("does not answer for host 'attacker.example'");
  expect(answer.body.message).toContain("controlAllowedHosts: ['attacker.example']");
  expect(answer.body.message).toContain('--control-allowed-host attacker.example');
  // Every route, with or without a token: the check comes first.
  expect((await raw(port, 'attacker.example', '/v1/topics')).status).toBe(421);
  // Its same-origin requests that carry Origin (a POST does) pass the Origin check as same-origin, and stop here.
  expect((await raw(port, `attacker.example:${port}`, '/v1/topics', `Origin: http://attacker.example:${port}\r\n`)).status).toBe(421);
  expect((await raw(port, 'localhost.attacker.example')).status).toBe(421);
  expect((await raw(port, '127.0.0.1.nip.io')).status).toBe(421);
});

test('loopback addresses, localhost and the allowed hosts are served', async () => {
  for (const host of [`127.0.0.1:${port}`, '127.9.9.9', `[::1]:${port}`, `localhost:${port}`, 'LOCALHOST', 'localhost.', 'kafkaesque.test', 'ci.internal', `runner-7.ci.internal:${port}`]) {
    expect([host, (await raw(port, host)).status]).toEqual([host, 200]);
  }
  expect((await raw(port, 'kafkaesque.test.evil')).status).toBe(421);
  expect((await raw(port, 'xci.internal')).status).toBe(421);
});

test('no Host header, or a malformed one, is refused', async () => {
  // HTTP/1.1 requires Host: node answers 400 itself.
  expect((await raw(port, null)).status).toBe(400);
  expect(misdirectedReason(undefined, {})).toBe('the request has no Host header');
  expect((await raw(port, 'user@localhost')).status).toBe(421);
  expect(misdirectedReason('::1', {})).toMatch(/is not host\[:port\]/);
});

test('with allowRemote, IP literals (which cannot be rebound) are served too, other names still need allowing', async () => {
  const open = await startControlServer({ cluster: kafka.cluster, bootstrap: kafka.bootstrap, stopNode: async () => {}, startNode: async () => {}, reset: () => kafka.reset() }, { log: silentLogger, allowRemote: true, allowedHosts: ['build-box'] });
  servers.push(open);
  expect((await raw(open.port, `192.0.2.10:${open.port}`, '/v1/version')).status).toBe(200);
  expect((await raw(open.port, '[2001:db8::1]', '/v1/version')).status).toBe(200);
  expect((await raw(open.port, 'build-box', '/v1/version')).status).toBe(200);
  expect((await raw(open.port, 'attacker.example', '/v1/version')).status).toBe(421);
  expect(misdirectedReason('attacker.example', { allowRemote: true })).toContain('localhost, IP addresses and the hosts you allow');
});

test('host parsing and the allowed-hosts option', () => {
  expect(hostOf('[::1]:9')).toBe('::1');
  expect(hostOf('Example.COM.:80')).toBe('example.com');
  expect(hostOf('a b')).toBeNull();
  expect(checkAllowedHosts(['My-Host', '.CI.internal', '[::1]'])).toEqual(['my-host', '.ci.internal', '::1']);
  expect(() => checkAllowedHosts(['host:8080'])).toThrow("controlAllowedHosts[0] must be a host name such as 'my-ci-host' or '.ci.internal' (no port, scheme or path), got \"host:8080\"");
  expect(() => checkAllowedHosts(['ok', 'http://x/'])).toThrow(/controlAllowedHosts\[1\]/);
  expect(() => checkAllowedHosts('x' as never)).toThrow(/must be a list of host names/);
});
