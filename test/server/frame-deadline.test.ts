// Regression (found by bench/hostile.mjs): the request timeout closed a
// client that pipelines steadily. Its clock started at the first partial
// frame and only stopped when a read ended exactly on a frame boundary, so a
// stream of whole frames arriving in reads that never align with them looked
// like one frame taking forever. Each completed frame now restarts it.
import net from 'node:net';
import { startCluster, type RunningCluster } from '../../src/index.js';

/** ApiVersions v0 with this correlation id, size prefix included. */
function apiVersions(correlationId: number): Buffer {
  const id = Buffer.from('pipeliner');
  const frame = Buffer.alloc(14 + id.length);
  frame.writeInt32BE(frame.length - 4, 0);
  frame.writeInt16BE(18, 4);
  frame.writeInt16BE(0, 6);
  frame.writeInt32BE(correlationId, 8);
  frame.writeInt16BE(id.length, 12);
  id.copy(frame, 14);
  return frame;
}

/**
 * Writes `count` frames in writes of one and a half frames each, every
 * `everyMs`, so that every read completes a frame and ends inside the next.
 * Resolves how many answers came before the connection ended or all did.
 */
function pipeline(address: string, count: number, everyMs: number): Promise<{ answered: number; closedEarly: boolean }> {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  const bytes = Buffer.concat(Array.from({ length: count }, (_, i) => apiVersions(i)));
  const step = Math.floor(apiVersions(0).length * 1.5);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setNoDelay(true);
    let answered = 0;
    let buf = Buffer.alloc(0);
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const end = (closedEarly: boolean) => {
      clearInterval(timer);
      socket.destroy();
      resolve({ answered, closedEarly });
    };
    socket.on('connect', () => {
      timer = setInterval(() => {
        socket.write(bytes.subarray(sent, sent + step));
        sent += step;
        if (sent >= bytes.length) clearInterval(timer);
      }, everyMs);
    });
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 4 && buf.length >= 4 + buf.readInt32BE(0)) {
        buf = buf.subarray(4 + buf.readInt32BE(0));
        if (++answered === count) end(false);
      }
    });
    socket.on('close', () => end(answered < count));
    socket.on('error', () => {});
  });
}

describe.each([true, false])('proxy: %s', (proxy) => {
  let kafka: RunningCluster;
  beforeAll(async () => {
    kafka = await startCluster({ brokers: 1, proxy, requestTimeoutMs: 200 });
  });
  afterAll(() => kafka.stop());

  test('frames streamed for several request timeouts, never aligned with reads, are all answered', async () => {
    // 40 frames over 27 writes 25 ms apart: ~650 ms, more than three request timeouts.
    expect(await pipeline(kafka.bootstrap, 40, 25)).toEqual({ answered: 40, closedEarly: false });
  });

  test('a stall of this process past the timeout is not blamed on a client whose bytes arrived meanwhile', async () => {
    // Found in CI: after an event-loop stall, the deadline timer ran before
    // the poll phase read the rest of the frame, already in the socket.
    const [host, port] = [kafka.bootstrap.split(':')[0]!, Number(kafka.bootstrap.split(':')[1])];
    const socket = net.connect({ host, port });
    socket.on('error', () => {});
    let answered = 0;
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 4 && buf.length >= 4 + buf.readInt32BE(0)) {
        buf = buf.subarray(4 + buf.readInt32BE(0));
        answered++;
      }
    });
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    await new Promise((r) => socket.once('connect', r));
    const second = apiVersions(2);
    socket.write(Buffer.concat([apiVersions(1), second.subarray(0, 10)]));
    await new Promise((r) => setTimeout(r, 100));
    socket.write(second.subarray(10));
    const stallUntil = Date.now() + 300; // past the 200 ms request timeout
    while (Date.now() < stallUntil);
    const outcome = await Promise.race([
      closed.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r(answered === 2 ? 'answered' : `answered ${answered}`), 300)),
    ]);
    socket.destroy();
    expect(outcome).toBe('answered');
  });

  test('a frame begun and never finished is still closed at the request timeout', async () => {
    const [host, port] = [kafka.bootstrap.split(':')[0]!, Number(kafka.bootstrap.split(':')[1])];
    const socket = net.connect({ host, port });
    socket.on('error', () => {});
    socket.resume(); // read the first answer, or 'close' never comes
    await new Promise((r) => socket.once('connect', r));
    socket.write(Buffer.concat([apiVersions(1), apiVersions(2).subarray(0, 10)]));
    await new Promise((r) => socket.once('close', r));
    expect(socket.destroyed).toBe(true);
  });
});
