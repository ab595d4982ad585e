// IncrementalAlterConfigs (44), v0-1: SET, DELETE, APPEND and SUBTRACT on
// single configs, leaving the others as they are.
import { IncrementalAlterConfigsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { alterConfigs, preprocessGroupResource, RESOURCE_GROUP, type ConfigOp } from '../config-resources.js';
import { defineHandler } from './handler.js';
import { configsAuthorizationError } from './authorize.js';

const OPS: ConfigOp['op'][] = ['set', 'delete', 'append', 'subtract'];

export default defineHandler(IncrementalAlterConfigsApi, (req, ctx) => ({
  throttleTimeMs: 0,
  responses: req.resources.map((r) => {
    const answer = (error: keyof typeof ErrorCode, message: string | null) => ({
      errorCode: ErrorCode[error],
      errorMessage: message,
      resourceType: r.resourceType,
      resourceName: r.resourceName,
    });
    if (r.resourceType === RESOURCE_GROUP) {
      // The broker's ConfigAdminManager#preprocess comes before the controller's authorization.
      const pre = preprocessGroupResource(ctx.cluster, r.resourceType, r.configs.map((c) => ({ name: c.name, op: OPS[c.configOperation] ?? 'set', value: c.value })), false);
      if (pre && !pre.ok) return answer(pre.error, pre.message);
    }
    // ALTER_CONFIGS on the topic, group or cluster (ControllerApis.handleIncrementalAlterConfigs).
    const refused = configsAuthorizationError(ctx, 'ALTER_CONFIGS', r.resourceType, r.resourceName);
    if (refused) return answer(refused, null);
    const bad = r.configs.find((c) => OPS[c.configOperation] === undefined);
    if (bad) return answer('INVALID_REQUEST', `Unknown config operation ${bad.configOperation} for ${bad.name}`);
    const ops = r.configs.map((c) => ({ name: c.name, op: OPS[c.configOperation]!, value: c.value }));
    const result = alterConfigs(ctx.cluster, r.resourceType, r.resourceName, ops, { replace: false, validateOnly: req.validateOnly });
    return result.ok ? answer('NONE', null) : answer(result.error, result.message);
  }),
}));
