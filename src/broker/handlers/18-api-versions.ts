// ApiVersions (18), v0-4. The answer is computed from the handler registry:
// what this broker advertises is exactly what it serves. The response header
// is always v0 (server/connection.ts); an unsupported version is answered
// there with a v0 body, before any handler runs. The feature fields (v3+)
// are the profile's (kafka-version/features.ts).
import { ApiVersionsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { apiVersionsFeatures } from '../kafka-version/features.js';
import { defineHandler } from './handler.js';

/** KIP-511: client software name and version must look like this. */
const SOFTWARE_PATTERN = /^[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?$/;

// Served up to v4: v5 (cluster and node id checks, KIP-1242) is in the codecs, not served yet.
export default defineHandler(ApiVersionsApi, (req, ctx) => {
  if (ctx.apiVersion >= 3 && !(SOFTWARE_PATTERN.test(req.clientSoftwareName) && SOFTWARE_PATTERN.test(req.clientSoftwareVersion))) {
    return { errorCode: ErrorCode.INVALID_REQUEST, apiKeys: [] };
  }
  return { errorCode: ErrorCode.NONE, apiKeys: ctx.supportedApis(), throttleTimeMs: 0, ...apiVersionsFeatures(ctx.cluster.profile.features, ctx.apiVersion) };
}, { max: 4 });
