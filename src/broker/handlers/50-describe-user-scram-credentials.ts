// DescribeUserScramCredentials (50), v0: the mechanisms and iterations of
// each user's SCRAM credentials (never the keys), from the cluster's store,
// as a KRaft broker answers from its metadata image (ScramImage.describe):
// users null or empty means every user; a user without credentials is
// RESOURCE_NOT_FOUND, one named twice DUPLICATE_RESOURCE.
import { DescribeUserScramCredentialsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';

export default defineHandler(DescribeUserScramCredentialsApi, (req, ctx) => {
  const store = ctx.cluster.scramCredentials;
  const named = req.users?.map((u) => u.name) ?? [];
  const duplicated = new Set(named.filter((n, i) => named.indexOf(n) !== i));
  const users = named.length === 0 ? store.users() : [...new Set(named)];
  const results = users.map((user) => {
    if (duplicated.has(user)) {
      return { user, errorCode: ErrorCode.DUPLICATE_RESOURCE, errorMessage: `Cannot describe SCRAM credentials for the same user twice in a single request: ${user}`, credentialInfos: [] };
    }
    const credentialInfos = store.describe(user);
    if (credentialInfos.length === 0) {
      return { user, errorCode: ErrorCode.RESOURCE_NOT_FOUND, errorMessage: `Attempt to describe a user credential that does not exist: ${user}`, credentialInfos: [] };
    }
    return { user, errorCode: ErrorCode.NONE, errorMessage: null, credentialInfos };
  });
  return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, results };
});
