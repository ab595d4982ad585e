// Every listener, the control API's included, is bound before startCluster
// says it is ready (issue 13: a control port in use was reported after
// "kafkaesque cluster ready"). One that cannot bind rejects with a
// ListenError naming the option of its port, after stopping what started.
import { createServer, connect, type Server } from 'node:net';
import pino from 'pino';
import { Writable } from 'node:stream';
import { ListenError, startCluster } from '../src/index.js';

function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })));
}
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', () => resolve(true));
  });
function capture() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
  return { logger, lines };
}

test('a control port in use: ListenError on controlPort, no ready line, the brokers stopped again', async () => {
  const taken = await listening();
  const { logger, lines } = capture();
  let brokerPort = 0;
  try {
    const free = await listening();
    brokerPort = free.port;
    await new Promise((r) => free.server.close(r));
    const err = await startCluster({ brokers: 1, port: brokerPort, controlPort: taken.port, logger }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ListenError);
    expect(err).toMatchObject({ option: 'controlPort', message: `controlPort: control API cannot listen on 127.0.0.1:${taken.port}: EADDRINUSE` });
    expect(lines.join('')).not.toMatch(/cluster ready/);
    // What had started was stopped: the broker's port is free again.
    expect(await refused(brokerPort)).toBe(true);
  } finally {
    taken.server.close();
  }
});

test('a broker port in use: ListenError on port; the ready line comes once every listener is bound', async () => {
  const taken = await listening();
  try {
    await expect(startCluster({ brokers: 1, port: taken.port })).rejects.toMatchObject({ name: 'ListenError', option: 'port' });
    await expect(startCluster({ brokers: 1, ports: [taken.port] })).rejects.toMatchObject({ name: 'ListenError', option: 'ports' });
  } finally {
    taken.server.close();
  }
  const { logger, lines } = capture();
  const kafka = await startCluster({ brokers: 1, logger });
  try {
    const ready = lines.map((l) => JSON.parse(l) as { msg: string; controlUrl?: string }).find((l) => l.msg === 'kafkaesque cluster ready');
    expect(ready?.controlUrl).toBe(kafka.controlUrl);
  } finally {
    await kafka.stop();
  }
});
