// Slow and idle clients, on raw sockets: a request frame begun and never
// finished, a SASL exchange begun and never finished and a TLS handshake
// never made are cut off after requestTimeoutMs; a connection with no
// traffic after connectionsMaxIdleMs (connections.max.idle.ms). Both on the
// proxy's listeners and, with proxy: false, on the brokers'. Connections
// that keep to the rules are untouched.
import { connect, type Socket } from 'node:net';
import { startCluster } from '../../src/index.js';
import { withCluster } from '../support/with-cluster.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { WireClient } from '../support/wire-client.js';

const TIMEOUT = 300;
const apiVersions = (c: WireClient) => c.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 'slow-test', clientSoftwareVersion: '1' });

function rawSocket(address: string): Promise<Socket> {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    const s = connect({ host, port: Number(port) }, () => resolve(s));
    s.once('error', reject);
  });
}

/** ms from now until the socket closes; rejects after boundMs. */
function closedWithin(s: Socket, boundMs: number): Promise<number> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    if (s.destroyed) return resolve(0);
    const t = setTimeout(() => reject(new Error(`still open after ${boundMs} ms`)), boundMs);
    s.on('error', () => {});
    s.once('close', () => {
      clearTimeout(t);
      resolve(Date.now() - start);
    });
  });
}

describe.each([true, false])('proxy: %s', (proxy) => {
  test('a frame begun and stalled is closed after requestTimeoutMs; another connection carries on', async () => {
    await withCluster({ proxy, requestTimeoutMs: TIMEOUT }, async (k) => {
      const good = await WireClient.connect(k.bootstrap);
      const slow = await rawSocket(k.bootstrap);
      slow.write(Buffer.from([0, 0, 0, 40, 0, 18])); // size 40, then 2 of its 40 bytes
      const elapsed = await closedWithin(slow, 5000);
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT - 50);
      expect(good.closed).toBe(false);
      expect((await apiVersions(good)).errorCode).toBe(0);
      good.close();
    });
  });

  test('a frame trickled a byte at a time is closed too: the bound is on the frame, not on silence', async () => {
    await withCluster({ proxy, requestTimeoutMs: TIMEOUT }, async (k) => {
      const slow = await rawSocket(k.bootstrap);
      slow.write(Buffer.from([0, 0, 0, 100]));
      const trickle = setInterval(() => slow.writable && slow.write(Buffer.from([0])), 50);
      try {
        expect(await closedWithin(slow, 5000)).toBeGreaterThanOrEqual(TIMEOUT - 50);
      } finally {
        clearInterval(trickle);
      }
    });
  });

  test('frames that arrive in pieces but finish in time are served', async () => {
    await withCluster({ proxy, requestTimeoutMs: TIMEOUT }, async (k) => {
      const c = await WireClient.connect(k.bootstrap);
      // Three requests, each split in two writes 50 ms apart: never a frame open for long.
      for (let i = 0; i < 3; i++) {
        const { encodeRequest } = await import('../../src/protocol/headers.js');
        const payload = encodeRequest(ApiKey.ApiVersions, 0, 7 + i, 'split', {});
        const frame = Buffer.concat([Buffer.from([0, 0, 0, payload.length]), payload]);
        c.writeRaw(frame.subarray(0, 5));
        await new Promise((r) => setTimeout(r, 50));
        c.writeRaw(frame.subarray(5));
        expect((await c.nextFrame())!.readInt32BE(0)).toBe(7 + i);
      }
      expect(c.closed).toBe(false);
      c.close();
    });
  });

  test('a SASL exchange begun and never finished is closed after requestTimeoutMs', async () => {
    await withCluster({ proxy, requestTimeoutMs: TIMEOUT, sasl: { users: { alice: 'pw' } } }, async (k) => {
      const c = await WireClient.connect(k.bootstrap);
      expect((await c.request(ApiKey.SaslHandshake, 1, { mechanism: 'PLAIN' })).errorCode).toBe(0);
      const start = Date.now();
      expect(await c.whenClosed(5000)).toBe(true);
      expect(Date.now() - start).toBeLessThan(5000);
    });
  });

  test('a connection with no traffic is closed after connectionsMaxIdleMs; a busy one is not', async () => {
    await withCluster({ proxy, connectionsMaxIdleMs: TIMEOUT }, async (k) => {
      const idle = await WireClient.connect(k.bootstrap);
      const busy = await WireClient.connect(k.bootstrap);
      await apiVersions(idle);
      const closed = closedWithin(idle.socket, 5000);
      // The busy one talks every TIMEOUT/3 for twice the idle bound.
      for (let i = 0; i < 6; i++) {
        await new Promise((r) => setTimeout(r, TIMEOUT / 3));
        expect((await apiVersions(busy)).errorCode).toBe(0);
      }
      expect(await closed).toBeGreaterThanOrEqual(TIMEOUT - 50);
      expect(busy.closed).toBe(false);
      busy.close();
    });
  });

  test('a TLS listener closes a connection that never makes its handshake', async () => {
    await withCluster({ proxy, tls: true, requestTimeoutMs: TIMEOUT }, async (k) => {
      const silent = await rawSocket(k.bootstrap);
      expect(await closedWithin(silent, 5000)).toBeGreaterThanOrEqual(TIMEOUT - 50);
    });
  });
});

test('the defaults are Kafka-like: 30 s for a begun request, connections.max.idle.ms 600000', async () => {
  const { defaultOptions } = await import('../../src/options.js');
  expect(defaultOptions.requestTimeoutMs).toBe(30_000);
  expect(defaultOptions.connectionsMaxIdleMs).toBe(600_000);
  await expect(startCluster({ requestTimeoutMs: -1 })).rejects.toThrow(/requestTimeoutMs: must be a whole number from 0 to 2147483647, got -1/);
});

test('a request the proxy paces to the broker (slice fault) is not taken for a slow client', async () => {
  await withCluster({ requestTimeoutMs: TIMEOUT, topics: [{ name: 'paced', partitions: 1 }] }, async (k) => {
    // ApiVersions v3 with this client id is ~40 bytes: 8-byte pieces 100 ms apart take ~500 ms > TIMEOUT.
    k.chaos.addRule({ match: { api: 'ApiVersions' }, action: { type: 'slice', bytes: 8, delayMs: 100, direction: 'request' } });
    const c = await WireClient.connect(k.bootstrap);
    const start = Date.now();
    expect((await apiVersions(c)).errorCode).toBe(0);
    expect(Date.now() - start).toBeGreaterThan(TIMEOUT);
    expect(c.closed).toBe(false);
    c.close();
  });
});
