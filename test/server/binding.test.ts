// "Nothing binds beyond 127.0.0.1 unless asked": every socket a default
// startCluster() listens on (proxy listeners, the brokers behind them, the
// side door, the control API) is on 127.0.0.1, read from the kernel's own table of this
// process's listening sockets rather than from what the code says it did.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { startCluster } from '../../src/index.js';

interface Listening {
  address: string;
  port: number;
}

/** This process's TCP sockets in LISTEN state (Linux /proc). */
function listeningSockets(): Listening[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // the fd closed while we looked
    }
  }
  const out: Listening[] = [];
  for (const file of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A' || !inodes.has(f[9]!)) continue; // 0A: LISTEN
      const [hex, port] = f[1]!.split(':');
      out.push({ address: hexAddress(hex!), port: parseInt(port!, 16) });
    }
  }
  return out;
}

function hexAddress(hex: string): string {
  if (hex.length === 8) return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
  // IPv6: four little-endian 32-bit words.
  const words = [0, 1, 2, 3].map((w) => hex.slice(w * 8, w * 8 + 8).match(/../g)!.reverse().join(''));
  return words.join('').match(/.{4}/g)!.map((g) => g.replace(/^0{1,3}/, '')).join(':');
}

const linux = process.platform === 'linux';

(linux ? test : test.skip)('a default cluster listens on 127.0.0.1 only: 3 proxy listeners, 3 brokers, 3 side-door listeners, the control API', async () => {
  const before = new Set(listeningSockets().map((l) => `${l.address}:${l.port}`));
  const kafka = await startCluster();
  try {
    const added = listeningSockets().filter((l) => !before.has(`${l.address}:${l.port}`));
    expect(added).toHaveLength(10);
    expect(added.filter((l) => l.address !== '127.0.0.1')).toEqual([]);
    const ports = added.map((l) => l.port).sort();
    const expected = [...kafka.brokers.values(), ...kafka.directBrokers.values(), new URL(kafka.controlUrl).host].map((a) => Number(a.split(':').pop()));
    for (const p of expected) expect(ports).toContain(p);
  } finally {
    await kafka.stop();
  }
});

(linux ? test : test.skip)('asking for another address binds the client-facing listeners there (the proxy and the side door), and only those', async () => {
  const before = new Set(listeningSockets().map((l) => `${l.address}:${l.port}`));
  const kafka = await startCluster({ brokers: 1, host: '0.0.0.0', advertisedHost: '127.0.0.1' });
  try {
    const added = listeningSockets().filter((l) => !before.has(`${l.address}:${l.port}`));
    const proxyPort = Number(kafka.bootstrap.split(':')[1]);
    const doorPort = Number(kafka.directBootstrap!.split(':')[1]);
    const outside = added.filter((l) => l.address !== '127.0.0.1').sort((a, b) => a.port - b.port);
    expect(outside).toEqual([proxyPort, doorPort].sort((a, b) => a - b).map((port) => ({ address: '0.0.0.0', port })));
  } finally {
    await kafka.stop();
  }
});
