// DescribeUserScramCredentials (50) and AlterUserScramCredentials (51): the
// SCRAM credentials the SASL listener authenticates against change at run
// time; one user holds a different password per mechanism, and kafkajs
// authenticates with what AlterUserScramCredentials stored.
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { WireClient } from '../../support/wire-client.js';

const SHA256 = 1;
const SHA512 = 2;

let kafka: RunningCluster;
let c: WireClient;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, sasl: { users: { admin: 'admin-secret' } }, logLevel: 'silent' });
  c = await WireClient.connect(kafka.bootstrap);
  // The raw client authenticates with PLAIN first, as any client must on a SASL listener.
  await c.request(ApiKey.SaslHandshake, 1, { mechanism: 'PLAIN' });
  expect((await c.request(ApiKey.SaslAuthenticate, 1, { authBytes: Buffer.from('\u0000admin\u0000admin-secret') })).errorCode).toBe(0);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

/** What a client sends: the salt and Hi(password, salt, iterations), never the password (ScramFormatter.hi). */
function upsertion(name: string, mechanism: number, password: string, iterations = 4096) {
  const salt = randomBytes(16);
  const [hash, size] = mechanism === SHA256 ? (['sha256', 32] as const) : (['sha512', 64] as const);
  return { name, mechanism, iterations, salt, saltedPassword: pbkdf2Sync(password, salt, iterations, size, hash) };
}
const alter = (upsertions: ReturnType<typeof upsertion>[], deletions: { name: string; mechanism: number }[] = []) =>
  c.request(ApiKey.AlterUserScramCredentials, 0, { deletions, upsertions });
const describe = (users: string[] | null) => c.request(ApiKey.DescribeUserScramCredentials, 0, { users: users?.map((name) => ({ name })) ?? null });

async function canConnect(mechanism: 'scram-sha-256' | 'scram-sha-512', username: string, password: string): Promise<boolean> {
  const admin = new Kafka({ brokers: [kafka.bootstrap], sasl: { mechanism, username, password } as SASLOptions, logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 3000 }).admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

test('a user added with a different password per mechanism authenticates with each, and only with its own', async () => {
  expect((await alter([upsertion('carol', SHA256, 'pw-256')])).results).toEqual([{ user: 'carol', errorCode: 0, errorMessage: null }]);
  expect((await alter([upsertion('carol', SHA512, 'pw-512', 8192)])).results).toEqual([{ user: 'carol', errorCode: 0, errorMessage: null }]);
  expect(await canConnect('scram-sha-256', 'carol', 'pw-256')).toBe(true);
  expect(await canConnect('scram-sha-512', 'carol', 'pw-512')).toBe(true);
  expect(await canConnect('scram-sha-256', 'carol', 'pw-512')).toBe(false);
  expect(await canConnect('scram-sha-512', 'carol', 'pw-256')).toBe(false);

  const described = await describe(['carol']);
  expect(described).toMatchObject({ errorCode: 0, results: [{ user: 'carol', errorCode: 0, errorMessage: null, credentialInfos: [{ mechanism: SHA256, iterations: 4096 }, { mechanism: SHA512, iterations: 8192 }] }] });

  // Changing one mechanism's password leaves the other; deleting it stops that mechanism only.
  await alter([upsertion('carol', SHA256, 'new-256')]);
  expect(await canConnect('scram-sha-256', 'carol', 'pw-256')).toBe(false);
  expect(await canConnect('scram-sha-256', 'carol', 'new-256')).toBe(true);
  expect((await alter([], [{ name: 'carol', mechanism: SHA256 }])).results).toEqual([{ user: 'carol', errorCode: 0, errorMessage: null }]);
  expect(await canConnect('scram-sha-256', 'carol', 'new-256')).toBe(false);
  expect(await canConnect('scram-sha-512', 'carol', 'pw-512')).toBe(true);
  expect((await describe(['carol'])).results[0].credentialInfos).toEqual([{ mechanism: SHA512, iterations: 8192 }]);
});

test('the users the cluster started with are in the store, for both mechanisms; no users means all of them', async () => {
  const all = await describe(null);
  expect(all.results.find((r: any) => r.user === 'admin').credentialInfos).toEqual([
    { mechanism: SHA256, iterations: 4096 },
    { mechanism: SHA512, iterations: 4096 },
  ]);
  expect((await describe([])).results.map((r: any) => r.user)).toEqual(all.results.map((r: any) => r.user));
});

test('DescribeUserScramCredentials: an unknown user is RESOURCE_NOT_FOUND, one named twice DUPLICATE_RESOURCE', async () => {
  const res = await describe(['admin', 'nobody', 'admin']);
  expect(res.results).toEqual([
    { user: 'admin', errorCode: ErrorCode.DUPLICATE_RESOURCE, errorMessage: 'Cannot describe SCRAM credentials for the same user twice in a single request: admin', credentialInfos: [] },
    { user: 'nobody', errorCode: ErrorCode.RESOURCE_NOT_FOUND, errorMessage: 'Attempt to describe a user credential that does not exist: nobody', credentialInfos: [] },
  ]);
});

test("AlterUserScramCredentials refuses per user as Kafka's controller does, and changes nothing for a refused user", async () => {
  const res = await alter(
    [
      upsertion('dave', SHA256, 'x', 1000),
      upsertion('erin', SHA512, 'x', 20000),
      { ...upsertion('frank', SHA256, 'x'), mechanism: 0 },
      upsertion('', SHA256, 'x'),
      upsertion('gina', SHA256, 'x'),
      upsertion('gina', SHA512, 'y'),
      upsertion('hal', SHA256, 'x'),
    ],
    [{ name: 'nobody', mechanism: SHA256 }],
  );
  expect(res.results).toEqual([
    { user: 'hal', errorCode: 0, errorMessage: null },
    { user: 'nobody', errorCode: ErrorCode.RESOURCE_NOT_FOUND, errorMessage: 'Attempt to delete a user credential that does not exist' },
    { user: 'dave', errorCode: ErrorCode.UNACCEPTABLE_CREDENTIAL, errorMessage: 'Too few iterations' },
    { user: 'erin', errorCode: ErrorCode.UNACCEPTABLE_CREDENTIAL, errorMessage: 'Too many iterations' },
    { user: 'frank', errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM, errorMessage: 'Unknown SCRAM mechanism' },
    { user: '', errorCode: ErrorCode.UNACCEPTABLE_CREDENTIAL, errorMessage: 'Username must not be empty' },
    { user: 'gina', errorCode: ErrorCode.DUPLICATE_RESOURCE, errorMessage: 'A user credential cannot be altered twice in the same request' },
  ]);
  const described = await describe(['dave', 'gina', 'hal']);
  expect(described.results.map((r: any) => [r.user, r.errorCode])).toEqual([
    ['dave', ErrorCode.RESOURCE_NOT_FOUND],
    ['gina', ErrorCode.RESOURCE_NOT_FOUND],
    ['hal', 0],
  ]);
});
