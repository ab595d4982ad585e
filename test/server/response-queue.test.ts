// The response queue on its own, against a socket double that records what
// is written: request order, one write per tick, record batches by reference,
// close after a response. (test/server/connection.test.ts checks the same
// rules on the wire with real sockets.)
import type { Socket } from 'node:net';
import { ResponseQueue } from '../../src/server/response-queue.js';

class RecordingSocket {
  destroyed = false;
  corked = 0;
  /** One entry per socket write call; writes between cork() and uncork() form one group. */
  readonly writes: Buffer[] = [];
  readonly groups: Buffer[][] = [];
  private pending: Buffer[] | null = null;
  cork(): void {
    this.corked++;
    this.pending = [];
  }
  uncork(): void {
    this.groups.push(this.pending ?? []);
    this.pending = null;
  }
  write(chunk: Buffer): boolean {
    this.writes.push(chunk);
    if (this.pending) this.pending.push(chunk);
    else this.groups.push([chunk]);
    return true;
  }
  get text(): string {
    return Buffer.concat(this.writes).toString();
  }
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const chunks = (...parts: string[]) => parts.map((p) => Buffer.from(p));

function setup() {
  const socket = new RecordingSocket();
  let closedAfter = 0;
  const queue = new ResponseQueue(socket as unknown as Socket, () => closedAfter++);
  return { socket, queue, closedAfter: () => closedAfter };
}

test('a response that finishes early waits for the ones before it', async () => {
  const { socket, queue } = setup();
  const first = queue.reserve();
  const second = queue.reserve();
  queue.complete(second, chunks('[2]'));
  await tick();
  expect(socket.writes).toHaveLength(0);
  queue.complete(first, chunks('[1]'));
  await tick();
  expect(socket.text).toBe('[1][2]');
});

test('responses ready in the same tick leave in one write, their small chunks joined', async () => {
  const { socket, queue } = setup();
  const slots = [queue.reserve(), queue.reserve(), queue.reserve()];
  queue.complete(slots[2]!, chunks('size', 'c', 'header', 'body'));
  queue.complete(slots[0]!, chunks('size', 'a', 'header', 'body'));
  queue.complete(slots[1]!, null); // acks=0: no response, keeps its place
  await tick();
  expect(socket.writes).toHaveLength(1);
  expect(socket.text).toBe('sizeaheaderbodysizecheaderbody');
  expect(socket.corked).toBe(0);
});

test('responses finished in different ticks are written in different writes', async () => {
  const { socket, queue } = setup();
  queue.push(chunks('one'));
  await tick();
  queue.push(chunks('two'));
  await tick();
  expect(socket.writes.map(String)).toEqual(['one', 'two']);
});

test('large chunks (stored record batches) are written by reference, never copied', async () => {
  const { socket, queue } = setup();
  const batch = Buffer.alloc(64 * 1024, 7);
  queue.push([Buffer.from('head'), batch, Buffer.from('tail')]);
  queue.push(chunks('next'));
  await tick();
  expect(socket.corked).toBe(1);
  expect(socket.groups).toHaveLength(1);
  expect(socket.writes).toHaveLength(3);
  expect(socket.writes[1]).toBe(batch);
  expect(socket.writes[0]!.toString()).toBe('head');
  expect(socket.writes[2]!.toString()).toBe('tailnext');
});

test('a response that ends the connection is written, then nothing more', async () => {
  const { socket, queue, closedAfter } = setup();
  const a = queue.reserve();
  const b = queue.reserve();
  const c = queue.reserve();
  queue.complete(c, chunks('[3]'));
  queue.complete(b, chunks('[2, last]'), true);
  queue.complete(a, chunks('[1]'));
  await tick();
  expect(socket.text).toBe('[1][2, last]');
  expect(closedAfter()).toBe(1);
  queue.push(chunks('[4]'));
  await tick();
  expect(socket.text).toBe('[1][2, last]');
  expect(closedAfter()).toBe(1);
});

test('nothing is written to a destroyed socket', async () => {
  const { socket, queue } = setup();
  queue.push(chunks('x'));
  socket.destroyed = true;
  await tick();
  expect(socket.writes).toHaveLength(0);
});
