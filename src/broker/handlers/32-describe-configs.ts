// DescribeConfigs (32), v0-4: topic configs with their defaults and
// overrides, and the broker configs that shape this cluster.
// DESCRIBE_CONFIGS on the topic or the cluster, else TOPIC_ or
// CLUSTER_AUTHORIZATION_FAILED (ConfigHelper.describeConfigs).
// Differs from Kafka: synonyms are not listed; documentation is null.
import { DescribeConfigsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { describeConfigs } from '../config-resources.js';
import { defineHandler } from './handler.js';
import { configsAuthorizationError } from './authorize.js';

export default defineHandler(DescribeConfigsApi, (req, ctx) => ({
  throttleTimeMs: 0,
  results: req.resources.map((r) => {
    const refused = configsAuthorizationError(ctx, 'DESCRIBE_CONFIGS', r.resourceType, r.resourceName);
    if (refused) return { errorCode: ErrorCode[refused], errorMessage: null, resourceType: r.resourceType, resourceName: r.resourceName, configs: [] };
    const result = describeConfigs(ctx.cluster, r.resourceType, r.resourceName, r.configurationKeys, ctx);
    if (!result.ok) return { errorCode: ErrorCode[result.error], errorMessage: result.message, resourceType: r.resourceType, resourceName: r.resourceName, configs: [] };
    return {
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      resourceType: r.resourceType,
      resourceName: r.resourceName,
      configs: result.value.map((c) => ({
        name: c.name,
        value: c.value,
        readOnly: c.readOnly,
        // Only v0 carries is_default, and ConfigHelper#describeConfigs never
        // sets it: a real 3.9.1 answers false for every config (test/conformance).
        isDefault: false,
        configSource: c.source,
        isSensitive: c.sensitive,
        configType: c.type,
        documentation: null,
      })),
    };
  }),
}));
