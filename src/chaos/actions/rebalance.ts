// rebalance: with `memberId`, removes that member from the group as an
// expired session would (cluster.groups.expireMember): the others rebalance
// without it, and its next Heartbeat or commit meets UNKNOWN_MEMBER_ID, so it
// rejoins as a new member. Member ids are made by the broker, so `memberId`
// may be a prefix (kafkajs ids start with the client id): the first member
// whose id starts with it goes. Without, makes the whole group rebalance now
// (forceRebalance): every member's next Heartbeat answers
// REBALANCE_IN_PROGRESS. Partitions may move; the new owner starts from the
// last committed offset. Then forwards the request.
import { FORWARD, defineAction } from './action.js';
import { optionalString, string } from '../validate.js';

export default defineAction({
  type: 'rebalance',
  layer: 'frame',
  summary: 'Makes a group rebalance now, or evicts one member (memberId) as an expired session would, then forwards the request',
  params: ['groupId', 'memberId'],
  parse: (raw) => ({ groupId: string(raw.groupId, 'action.groupId'), memberId: optionalString(raw.memberId, 'action.memberId') }),
  fire: (p, ctx) => {
    const { groups } = ctx.cluster;
    if (p.memberId !== undefined) {
      // Member ids are made by the broker (kafkajs: `${clientId}-${uuid}`): a prefix picks the first that starts with it.
      const members = groups.describe(p.groupId)?.members ?? [];
      const member = members.find((m) => m.memberId === p.memberId) ?? members.find((m) => m.memberId.startsWith(p.memberId!));
      const evicted = member !== undefined && groups.expireMember(p.groupId, member.memberId);
      return { outcome: FORWARD, detail: { groupId: p.groupId, memberId: member?.memberId ?? p.memberId, result: evicted ? 'evicted' : 'unknown-member' } };
    }
    return { outcome: FORWARD, detail: { groupId: p.groupId, result: groups.forceRebalance(p.groupId) } };
  },
});
