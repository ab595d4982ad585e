// DescribeConfigs (32), v0-4: topic configs with their defaults and
// overrides, the broker configs that shape this cluster, and (4.x) group
// configs with their synonyms and documentation. DESCRIBE_CONFIGS on the
// topic, group or cluster, else TOPIC_, GROUP_ or CLUSTER_AUTHORIZATION_FAILED
// (ConfigHelper.describeConfigs), the refusals after the answers.
// Differs from Kafka: topic and broker synonyms are not listed; their documentation is null.
import { DescribeConfigsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { describeConfigs, RESOURCE_GROUP } from '../config-resources.js';
import { defineHandler } from './handler.js';
import { configsAuthorizationError } from './authorize.js';

/** Errors.INVALID_REQUEST.message(): what DescribeConfigsRequest#getErrorResponse puts on every resource. */
const INVALID_REQUEST_MESSAGE =
  'This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.';

export default defineHandler(DescribeConfigsApi, (req, ctx) => {
  // A Kafka without GROUP resources (3.9) fails the whole request while sorting
  // resources for authorization ("Unexpected resource type GROUP", ConfigHelper 3.9.1).
  if (!ctx.cluster.profile.groupConfigs && req.resources.some((r) => r.resourceType === RESOURCE_GROUP)) {
    return {
      throttleTimeMs: 0,
      results: req.resources.map((r) => ({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: INVALID_REQUEST_MESSAGE, resourceType: r.resourceType, resourceName: r.resourceName, configs: [] })),
    };
  }
  const opts = { includeSynonyms: req.includeSynonyms, includeDocumentation: req.includeDocumentation };
  const answered = [];
  const refusedGroups = [];
  for (const r of req.resources) {
    const refused = configsAuthorizationError(ctx, 'DESCRIBE_CONFIGS', r.resourceType, r.resourceName);
    if (refused === 'GROUP_AUTHORIZATION_FAILED') {
      refusedGroups.push({ errorCode: ErrorCode[refused], errorMessage: 'Group authorization failed.', resourceType: r.resourceType, resourceName: r.resourceName, configs: [] });
      continue;
    }
    if (refused) {
      answered.push({ errorCode: ErrorCode[refused], errorMessage: null, resourceType: r.resourceType, resourceName: r.resourceName, configs: [] });
      continue;
    }
    const result = describeConfigs(ctx.cluster, r.resourceType, r.resourceName, r.configurationKeys, ctx, opts);
    if (!result.ok) {
      answered.push({ errorCode: ErrorCode[result.error], errorMessage: result.message, resourceType: r.resourceType, resourceName: r.resourceName, configs: [] });
      continue;
    }
    answered.push({
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
        synonyms: c.synonyms ?? [],
        configType: c.type,
        documentation: c.documentation ?? null,
      })),
    });
  }
  return { throttleTimeMs: 0, results: [...answered, ...refusedGroups] };
});
