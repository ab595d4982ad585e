// replication-lag: sets how long followers take to copy a leader's appends
// (cluster.setReplicationLag), for every partition, from now on; 0 makes
// replication immediate again. With a lag, an acks=1 write is acknowledged
// before any follower has it, so a leader that fails in the meantime loses
// it (the new leader truncates); acks=all waits for the ISR and loses nothing.
// Then forwards the request.
import { FORWARD, defineAction } from './action.js';
import { integer } from '../validate.js';

export default defineAction({
  type: 'replication-lag',
  layer: 'frame',
  needsCluster: true,
  summary: 'Sets how long followers take to copy the leaders\' appends (ms; 0: at once), then forwards the request',
  params: ['ms'],
  parse: (raw) => ({ ms: integer(raw.ms, 'action.ms', { min: 0, max: 86_400_000 }) }),
  fire: (p, ctx) => {
    ctx.cluster.setReplicationLag(p.ms);
    return { outcome: FORWARD, detail: { ms: p.ms } };
  },
});
