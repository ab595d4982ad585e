// expire-share-locks: a share group's acquisition locks run out now, as
// share.record.lock.duration.ms would after a long pause in processing
// (KIP-932): every record they held becomes available again, its delivery
// count kept (archived instead once it reached share.delivery.count.limit),
// and goes to whichever member fetches next. Then forwards the request, so
// that an acknowledgement it carries meets INVALID_RECORD_STATE: the
// application processed records it no longer holds, and another member gets
// them, delivery count 2.
//
// Without `groupId`, the group the matched request names; `sender` expires
// only the locks of the member that sent it (a ShareFetch's or
// ShareAcknowledge's MemberId), `memberId` those of one member.
import { FORWARD, defineAction } from './action.js';
import { fail, optionalBoolean, optionalString } from '../validate.js';
import { requestGroup } from './rebalance.js';

export default defineAction({
  type: 'expire-share-locks',
  layer: 'frame',
  needsCluster: true,
  summary: "Makes a share group's acquisition locks (or one member's, or the sender's) run out now, then forwards the request",
  params: ['groupId', 'memberId', 'sender'],
  parse: (raw) => {
    const memberId = optionalString(raw.memberId, 'action.memberId');
    const sender = optionalBoolean(raw.sender, 'action.sender') ?? false;
    if (sender && memberId !== undefined) fail('action.sender', 'give either action.memberId or action.sender, not both');
    return { groupId: optionalString(raw.groupId, 'action.groupId'), memberId, sender };
  },
  fire: (p, ctx) => {
    const groupId = requestGroup(p.groupId, ctx);
    if (groupId === undefined) return { outcome: FORWARD, detail: { result: 'no-group' } };
    const sent = (ctx.request.body() as { memberId?: unknown } | undefined)?.memberId;
    const memberId = p.sender ? (typeof sent === 'string' ? sent : undefined) : p.memberId;
    if (p.sender && memberId === undefined) return { outcome: FORWARD, detail: { groupId, result: 'no-member' } };
    const released = ctx.cluster.shares.expireLocks(groupId, memberId);
    return { outcome: FORWARD, detail: { groupId, ...(memberId === undefined ? {} : { memberId }), released } };
  },
});
