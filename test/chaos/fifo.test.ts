// The proxy's answer queue (src/chaos/fifo.ts): first in, first out across
// the compaction of its consumed front, with find and removeWhere in order.
import { Fifo } from '../../src/chaos/fifo.js';

test('items come out in the order they went in, across many compactions, interleaved with pushes', () => {
  const q = new Fifo<number>();
  const out: number[] = [];
  let next = 0;
  for (let round = 0; round < 50; round++) {
    for (let i = 0; i < 300; i++) q.push(next++);
    for (let i = 0; i < 200; i++) out.push(q.shift()!);
  }
  while (q.length) out.push(q.shift()!);
  expect(out).toEqual(Array.from({ length: next }, (_, i) => i));
  expect(q.shift()).toBeUndefined();
  expect(q.first).toBeUndefined();
});

test('first, find and removeWhere see only what is still queued', () => {
  const q = new Fifo<{ id: number; awaiting: boolean }>();
  for (let id = 0; id < 3000; id++) q.push({ id, awaiting: id % 3 === 0 });
  for (let i = 0; i < 2000; i++) q.shift();
  expect(q.length).toBe(1000);
  expect(q.first).toEqual({ id: 2000, awaiting: false });
  expect(q.find((s) => s.awaiting)).toEqual({ id: 2001, awaiting: true });
  q.removeWhere((s) => s.awaiting);
  expect(q.length).toBe(667);
  expect(q.find((s) => s.awaiting)).toBeUndefined();
  expect(q.shift()).toEqual({ id: 2000, awaiting: false });
  expect(q.shift()).toEqual({ id: 2002, awaiting: false });
  q.clear();
  expect(q.length).toBe(0);
});
