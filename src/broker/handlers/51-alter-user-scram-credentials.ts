// AlterUserScramCredentials (51), v0: deletions and upsertions of SCRAM
// credentials in the cluster's store, checked and answered as KRaft's
// ScramControlManager.alterCredentials does. The client sends the salt and
// the salted password (never the password); the store keeps StoredKey and
// ServerKey derived from it, so a user added here can then authenticate.
// Per user: a user altered twice in one request is DUPLICATE_RESOURCE (so
// each mechanism of one user takes a request of its own, as in Kafka), an
// empty name UNACCEPTABLE_CREDENTIAL, an unknown mechanism
// UNSUPPORTED_SASL_MECHANISM, iterations outside 4096..16384
// UNACCEPTABLE_CREDENTIAL, deleting a credential that does not exist
// RESOURCE_NOT_FOUND. Results: deletions, then upsertions, then errors.
import { AlterUserScramCredentialsApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import { SCRAM_MECHANISM_TYPES, credentialFromSaltedPassword } from '../scram-credentials.js';
import { defineHandler } from './handler.js';

/** ScramMechanism.minIterations (both mechanisms) and ScramControlManager's MAX_ITERATIONS. */
const MIN_ITERATIONS = 4096;
const MAX_ITERATIONS = 16384;

type Failure = { error: ErrorName; message: string };
const TWICE: Failure = { error: 'DUPLICATE_RESOURCE', message: 'A user credential cannot be altered twice in the same request' };

function nameAndMechanism(name: string, mechanism: number): Failure | null {
  if (name.length === 0) return { error: 'UNACCEPTABLE_CREDENTIAL', message: 'Username must not be empty' };
  if (!SCRAM_MECHANISM_TYPES.has(mechanism)) return { error: 'UNSUPPORTED_SASL_MECHANISM', message: 'Unknown SCRAM mechanism' };
  return null;
}

export default defineHandler(AlterUserScramCredentialsApi, (req, ctx) => {
  const store = ctx.cluster.scramCredentials;
  const deletions = new Map<string, (typeof req.deletions)[number]>();
  const upsertions = new Map<string, (typeof req.upsertions)[number]>();
  const errors = new Map<string, Failure>();
  for (const d of req.deletions) {
    if (errors.has(d.name)) continue;
    if (deletions.delete(d.name)) {
      errors.set(d.name, TWICE);
      continue;
    }
    const problem = nameAndMechanism(d.name, d.mechanism) ?? (store.get(SCRAM_MECHANISM_TYPES.get(d.mechanism)!, d.name) ? null : { error: 'RESOURCE_NOT_FOUND' as const, message: 'Attempt to delete a user credential that does not exist' });
    if (problem) errors.set(d.name, problem);
    else deletions.set(d.name, d);
  }
  for (const u of req.upsertions) {
    if (errors.has(u.name)) continue;
    if (deletions.delete(u.name) || upsertions.delete(u.name)) {
      errors.set(u.name, TWICE);
      continue;
    }
    let problem = nameAndMechanism(u.name, u.mechanism);
    if (!problem && u.iterations < MIN_ITERATIONS) problem = { error: 'UNACCEPTABLE_CREDENTIAL', message: 'Too few iterations' };
    if (!problem && u.iterations > MAX_ITERATIONS) problem = { error: 'UNACCEPTABLE_CREDENTIAL', message: 'Too many iterations' };
    if (problem) errors.set(u.name, problem);
    else upsertions.set(u.name, u);
  }
  const ok = (user: string) => ({ user, errorCode: ErrorCode.NONE, errorMessage: null });
  const results = [];
  for (const d of deletions.values()) {
    store.delete(d.name, SCRAM_MECHANISM_TYPES.get(d.mechanism)!);
    results.push(ok(d.name));
  }
  for (const u of upsertions.values()) {
    const mechanism = SCRAM_MECHANISM_TYPES.get(u.mechanism)!;
    store.set(u.name, mechanism, credentialFromSaltedPassword(mechanism, u.salt, u.iterations, u.saltedPassword));
    results.push(ok(u.name));
  }
  for (const [user, f] of errors) results.push({ user, errorCode: ErrorCode[f.error], errorMessage: f.message });
  return { throttleTimeMs: 0, results };
});
