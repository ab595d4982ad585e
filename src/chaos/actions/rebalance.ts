// rebalance: with `memberId`, removes that member from the group as an
// expired session would (cluster.groups.expireMember): the others rebalance
// without it, and its next Heartbeat or commit meets UNKNOWN_MEMBER_ID, so it
// rejoins as a new member. Member ids are made by the broker, so `memberId`
// may be a prefix (kafkajs ids start with the client id): the first member
// whose id starts with it goes. Without, makes the whole group rebalance now
// (forceRebalance): every member's next Heartbeat answers
// REBALANCE_IN_PROGRESS. Partitions may move; the new owner starts from the
// last committed offset. Then forwards the request.
//
// Without `groupId`, the group the matched request names (a Heartbeat's, an
// OffsetCommit's), so a preset can target whatever group the application
// uses; `evictSender` evicts the member that sent the request.
import { FORWARD, defineAction, type ActionContext } from './action.js';
import { fail, optionalBoolean, optionalString } from '../validate.js';

/** The group the rule names, else the first group the request names. */
export function requestGroup(groupId: string | undefined, ctx: ActionContext): string | undefined {
  return groupId ?? ctx.request.scope().groupIds[0];
}

export default defineAction({
  type: 'rebalance',
  layer: 'frame',
  needsCluster: true,
  summary: 'Makes a group rebalance now, or evicts one member (memberId, or the sender) as an expired session would, then forwards the request',
  params: ['groupId', 'memberId', 'evictSender'],
  parse: (raw) => {
    const memberId = optionalString(raw.memberId, 'action.memberId');
    const evictSender = optionalBoolean(raw.evictSender, 'action.evictSender') ?? false;
    if (evictSender && memberId !== undefined) fail('action.evictSender', 'give either action.memberId or action.evictSender, not both');
    return { groupId: optionalString(raw.groupId, 'action.groupId'), memberId, evictSender };
  },
  fire: (p, ctx) => {
    const { groups } = ctx.cluster;
    const groupId = requestGroup(p.groupId, ctx);
    if (groupId === undefined) return { outcome: FORWARD, detail: { result: 'no-group' } };
    const wanted = p.evictSender ? (ctx.request.body() as { memberId?: unknown } | undefined)?.memberId : p.memberId;
    if (p.evictSender && (typeof wanted !== 'string' || wanted === '')) return { outcome: FORWARD, detail: { groupId, result: 'no-member' } };
    if (typeof wanted === 'string') {
      // Member ids are made by the broker (kafkajs: `${clientId}-${uuid}`): a prefix picks the first that starts with it.
      const members = groups.describe(groupId)?.members ?? [];
      const member = members.find((m) => m.memberId === wanted) ?? (p.evictSender ? undefined : members.find((m) => m.memberId.startsWith(wanted)));
      const evicted = member !== undefined && groups.expireMember(groupId, member.memberId);
      return { outcome: FORWARD, detail: { groupId, memberId: member?.memberId ?? wanted, result: evicted ? 'evicted' : 'unknown-member' } };
    }
    return { outcome: FORWARD, detail: { groupId, result: groups.forceRebalance(groupId) } };
  },
});
