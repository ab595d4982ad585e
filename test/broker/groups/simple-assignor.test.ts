// The share-group assignor (Kafka 4.4's SimpleAssignor): how many members
// get each partition and how many partitions each member gets, stickiness,
// and Java's hash-map order deciding who gets which, as in Kafka.
import { randomUUID } from 'node:crypto';
import { assignShareGroup, type ShareAssignorMember } from '../../../src/broker/groups/assignors/simple-assignor.js';
import { JavaHashMap, stringHash, uuidHash } from '../../../src/broker/groups/assignors/java-hash-order.js';
import type { Assignment } from '../../../src/broker/groups/assignors/assignor.js';

const T = randomUUID();
const U = randomUUID();
const counts = new Map<string, number>([[T, 2], [U, 3]]);

function assign(members: ShareAssignorMember[], homogeneous = true): Record<string, string[]> {
  const out = assignShareGroup({ members, partitionCount: (t) => counts.get(t) ?? 0, assignable: () => true, homogeneous });
  return Object.fromEntries([...out].map(([m, a]) => [m, [...a].flatMap(([t, ps]) => [...ps].map((p) => `${t === T ? 'T' : 'U'}${p}`)).sort()]));
}

const member = (memberId: string, topics: string[], currentTarget: Assignment = new Map()): ShareAssignorMember => ({ memberId, subscribedTopicIds: topics, currentTarget });

test("Java's String and Uuid hash codes, and a HashMap's iteration order", () => {
  expect(stringHash('a')).toBe(97);
  expect(stringHash('hello')).toBe(99162322);
  expect(stringHash('polygenelubricants')).toBe(-2147483648);
  // Uuid(1, 2): msb ^ lsb = 3.
  expect(uuidHash('00000000-0000-0001-0000-000000000002')).toBe(3);
  const m = new JavaHashMap<string, number>(stringHash);
  for (const k of ['c', 'q', 'a']) m.set(k, 0);
  // 'a' 97 → bucket 1, 'q' 113 → bucket 1 (inserted first), 'c' 99 → bucket 3.
  expect(m.keys()).toEqual(['q', 'a', 'c']);
});

test('fewer members than partitions: each partition once, member i of n takes its share (2 and 1 of 3)', () => {
  const a = assign([member('a', [U]), member('b', [U])]);
  expect(a.a!.length + a.b!.length).toBe(3);
  expect([a.a!.length, a.b!.length]).toEqual([2, 1]);
  expect(new Set([...a.a!, ...a.b!]).size).toBe(3);
});

test('more members than partitions: each partition goes to ceil(3/2) = 2 members, member 0 gets both (KIP-932 sharing)', () => {
  const a = assign([member('a', [T]), member('b', [T]), member('c', [T])]);
  expect(a.a).toEqual(['T0', 'T1']);
  expect(a.b!.length).toBe(1);
  expect(a.c!.length).toBe(1);
  expect(new Set([...a.b!, ...a.c!]).size).toBe(2);
});

test('sticky: a new member takes only what the counts move; the others keep theirs', () => {
  const first = assignShareGroup({ members: [member('a', [U])], partitionCount: (t) => counts.get(t) ?? 0, assignable: () => true, homogeneous: true });
  expect([...first.get('a')!.get(U)!].sort()).toEqual([0, 1, 2]);
  const a = assign([member('a', [U], first.get('a')), member('b', [U])]);
  // a keeps 2 of its 3, b gets the third.
  expect(a.a!.length).toBe(2);
  expect(a.b!.length).toBe(1);
  expect(a.a!.includes(a.b![0]!)).toBe(false);
});

test('heterogeneous: each topic among its own subscribers; partitions not assignable are left out', () => {
  const a = assign([member('a', [T, U]), member('b', [U])], false);
  expect(a.a!.filter((p) => p.startsWith('T'))).toEqual(['T0', 'T1']);
  expect(a.a!.filter((p) => p.startsWith('U')).length + a.b!.length).toBe(3);
  const none = assignShareGroup({ members: [member('a', [T])], partitionCount: (t) => counts.get(t) ?? 0, assignable: () => false, homogeneous: true });
  expect(none.get('a')).toEqual(new Map());
});
