// AlterClientQuotas (49), v0-1: set or remove quota values per entity, checked
// and applied as KRaft's ClientQuotaControlManager.alterClientQuotas does
// (entity types user, client-id and ip, null names for defaults, the keys
// each takes, positive values, whole numbers for byte rates), answered per
// entity; validateOnly checks without applying. The new quotas apply to the
// next Produce and Fetch (cluster.quotas).
import { AlterClientQuotasApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';

export default defineHandler(AlterClientQuotasApi, (req, ctx) => {
  const alterations = req.entries.map((e) => ({
    // AlterClientQuotasRequest.entries: a map by entity type, so a type given twice keeps its last name.
    entity: new Map(e.entity.map((x) => [x.entityType, x.entityName] as const)),
    ops: e.ops.map((op) => ({ key: op.key, value: op.remove ? null : op.value })),
  }));
  const results = ctx.cluster.quotas.store.alter(alterations, req.validateOnly);
  return {
    throttleTimeMs: 0,
    entries: results.map((r) => ({
      errorCode: ErrorCode[r.error],
      errorMessage: r.error === 'NONE' ? null : r.message,
      entity: [...r.entity].map(([entityType, entityName]) => ({ entityType, entityName })),
    })),
  };
});
