// Waiting on the broker's own view of a consumer group: event-driven, from
// the group coordinator's state changes and commits, bounded in time.
import type { Cluster } from '../../src/broker/cluster.js';
import type { GroupDescription } from '../../src/broker/groups/group-coordinator.js';

/** Resolves when the group's description satisfies `ok`, re-checked on every change of state or commit. */
export function groupWhere(cluster: Cluster, groupId: string, ok: (d: GroupDescription) => boolean, timeoutMs = 20_000): Promise<GroupDescription> {
  const groups = cluster.groups;
  return new Promise((resolve, reject) => {
    const check = () => {
      const d = groups.describe(groupId);
      if (d && ok(d)) {
        done();
        resolve(d);
      }
    };
    const t = setTimeout(() => {
      done();
      reject(new Error(`group ${groupId} never got there: ${JSON.stringify(groups.describe(groupId))}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(t);
      groups.off('state-changed', check);
      groups.off('offsets-committed', check);
    };
    groups.on('state-changed', check);
    groups.on('offsets-committed', check);
    check();
  });
}
