// The event ring: bounded, ordered, read by `since`, and listened to.
import { EventLog } from '../../src/chaos/events.js';

const ev = (i: number) => ({ time: i, kind: 'fault', ruleId: `r${i}` });

test('keeps the newest `capacity` events in order; seq keeps counting', () => {
  const log = new EventLog(3);
  for (let i = 1; i <= 5; i++) log.push(ev(i));
  expect(log.size).toBe(3);
  expect(log.list().map((e) => e.seq)).toEqual([3, 4, 5]);
  expect(log.list({ since: 3 }).map((e) => e.seq)).toEqual([4, 5]);
  expect(log.list({ since: 1 }).map((e) => e.seq)).toEqual([3, 4, 5]);
  expect(log.list({ since: 5 })).toEqual([]);
  expect(log.list({ limit: 2 }).map((e) => e.seq)).toEqual([3, 4]);
  expect(log.list({ since: 3, limit: 1 }).map((e) => e.ruleId)).toEqual(['r4']);
});

test('the default ring holds 10,000 events', () => {
  const log = new EventLog();
  for (let i = 1; i <= 10_005; i++) log.push(ev(i));
  expect(log.size).toBe(10_000);
  expect(log.list()[0]!.seq).toBe(6);
});

test('listeners get every event; unsubscribing stops them; a throwing listener harms no one', () => {
  const log = new EventLog(10);
  const seen: number[] = [];
  log.on(() => {
    throw new Error('listener bug');
  });
  const off = log.on((e) => seen.push(e.seq));
  log.push(ev(1));
  log.push(ev(2));
  off();
  log.push(ev(3));
  expect(seen).toEqual([1, 2]);
  expect(log.list()).toHaveLength(3);
});
