// The server-side assignors of KIP-848 groups, as state machines: every
// partition of the subscribed topics to exactly one subscribed member, the
// counts balanced, the uniform assignor sticky, the range assignor's ranges.
import { uniformAssignor } from '../../../src/broker/groups/assignors/uniform-assignor.js';
import { rangeAssignor } from '../../../src/broker/groups/assignors/range-assignor.js';
import type { Assignment, AssignorMember, AssignorTopic } from '../../../src/broker/groups/assignors/assignor.js';

const topics = new Map<string, AssignorTopic>([
  ['T', { topicId: 'T', name: 't', partitions: 6 }],
  ['U', { topicId: 'U', name: 'u', partitions: 3 }],
]);

const member = (memberId: string, subscribedTopicIds: string[], currentTarget: Assignment = new Map()): AssignorMember => ({ memberId, instanceId: null, subscribedTopicIds, currentTarget });
const flat = (a: Assignment) => [...a].flatMap(([t, ps]) => [...ps].map((p) => `${t}${p}`)).sort();
const all = (out: Map<string, Assignment>) => [...out.values()].flatMap(flat).sort();

test('uniform: every partition once, counts within one of each other', () => {
  const out = uniformAssignor.assign([member('a', ['T', 'U']), member('b', ['T', 'U']), member('c', ['T', 'U']), member('d', ['T', 'U'])], topics);
  expect(all(out)).toEqual(['T0', 'T1', 'T2', 'T3', 'T4', 'T5', 'U0', 'U1', 'U2']);
  const counts = [...out.values()].map((a) => flat(a).length).sort();
  expect(counts).toEqual([2, 2, 2, 3]);
});

test('uniform is sticky: a new member takes partitions only from the loaded ones, the rest stay', () => {
  const first = uniformAssignor.assign([member('a', ['T']), member('b', ['T'])], topics);
  const second = uniformAssignor.assign([member('a', ['T'], first.get('a')), member('b', ['T'], first.get('b')), member('c', ['T'])], topics);
  expect([...second.values()].map((a) => flat(a).length)).toEqual([2, 2, 2]);
  // Each of a and b keeps two of its three.
  for (const id of ['a', 'b']) expect(flat(second.get(id)!).filter((p) => flat(first.get(id)!).includes(p))).toHaveLength(2);
  expect(all(second)).toEqual(['T0', 'T1', 'T2', 'T3', 'T4', 'T5']);
});

test('uniform with different subscriptions: a partition goes only to a member subscribed to its topic', () => {
  const out = uniformAssignor.assign([member('a', ['T']), member('b', ['T', 'U'])], topics);
  expect(flat(out.get('a')!).every((p) => p.startsWith('T'))).toBe(true);
  expect(flat(out.get('b')!).filter((p) => p.startsWith('U'))).toEqual(['U0', 'U1', 'U2']);
  expect(all(out)).toHaveLength(9);
  const [na, nb] = ['a', 'b'].map((id) => flat(out.get(id)!).length);
  expect(Math.abs(na! - nb!)).toBeLessThanOrEqual(1);
});

test('range: consecutive ranges per topic in member id order, the first members one more', () => {
  const out = rangeAssignor.assign([member('b', ['T', 'U']), member('a', ['T', 'U']), member('c', ['T'])], topics);
  expect(flat(out.get('a')!)).toEqual(['T0', 'T1', 'U0', 'U1']);
  expect(flat(out.get('b')!)).toEqual(['T2', 'T3', 'U2']);
  expect(flat(out.get('c')!)).toEqual(['T4', 'T5']);
});
