// DescribeClientQuotas (48), v0-1: the quota entities matching the filter and
// their values, as a KRaft broker answers from its metadata image
// (ClientQuotasImage.describe): EXACT, DEFAULT (null name) and SPECIFIED
// (any name) components, strict = no other entity types. A bad filter fails
// the whole request (errorCode, entries null), as KafkaApis' error answer does.
import { DescribeClientQuotasApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { QuotaRequestError } from '../quotas/client-quota-store.js';
import { defineHandler } from './handler.js';

export default defineHandler(DescribeClientQuotasApi, (req, ctx) => {
  try {
    const found = ctx.cluster.quotas.store.describe(req.components, req.strict);
    return {
      throttleTimeMs: 0,
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      entries: found.map(({ entity, values }) => ({
        entity: [...entity].map(([entityType, entityName]) => ({ entityType, entityName })),
        values: [...values].map(([key, value]) => ({ key, value })),
      })),
    };
  } catch (err) {
    if (!(err instanceof QuotaRequestError)) throw err;
    return { throttleTimeMs: 0, errorCode: ErrorCode[err.error], errorMessage: err.message, entries: null };
  }
});
