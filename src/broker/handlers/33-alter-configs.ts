// AlterConfigs (33), v0-2: replaces a resource's whole set of overrides.
import { AlterConfigsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { alterConfigs, preprocessGroupResource } from '../config-resources.js';
import { defineHandler } from './handler.js';
import { configsAuthorizationError } from './authorize.js';

export default defineHandler(AlterConfigsApi, (req, ctx) => ({
  throttleTimeMs: 0,
  responses: req.resources.map((r) => {
    const ops = r.configs.map((c) => ({ name: c.name, op: 'set' as const, value: c.value }));
    const pre = preprocessGroupResource(ctx.cluster, r.resourceType, ops, true);
    if (pre && !pre.ok) return { errorCode: ErrorCode[pre.error], errorMessage: pre.message, resourceType: r.resourceType, resourceName: r.resourceName };
    // ALTER_CONFIGS on the topic, group or cluster (ControllerApis.handleLegacyAlterConfigs).
    const refused = configsAuthorizationError(ctx, 'ALTER_CONFIGS', r.resourceType, r.resourceName);
    if (refused) return { errorCode: ErrorCode[refused], errorMessage: null, resourceType: r.resourceType, resourceName: r.resourceName };
    const result = alterConfigs(ctx.cluster, r.resourceType, r.resourceName, ops, { replace: true, validateOnly: req.validateOnly });
    return {
      errorCode: result.ok ? ErrorCode.NONE : ErrorCode[result.error],
      errorMessage: result.ok ? null : result.message,
      resourceType: r.resourceType,
      resourceName: r.resourceName,
    };
  }),
}));
