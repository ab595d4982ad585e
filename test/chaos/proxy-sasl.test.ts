// SASL through the proxy. SaslHandshake v1 is followed by SaslAuthenticate
// requests like any other; after SaslHandshake v0 (kafka-python, sarama)
// the client sends raw tokens without Kafka headers, which the proxy must
// pass through and pair with their raw answers.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { debianPython, requireTool, runClient } from '../support/external-client.js';
import { WireClient, decodeResponse } from '../support/wire-client.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, sasl: { users: { bob: 'b0b' } }, topics: [{ name: 'sasl', partitions: 1 }] });
});
afterAll(() => kafka.stop());

const rawFrame = (token: string) => {
  const body = Buffer.from(token, 'latin1');
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
};

test('SaslHandshake v0, a raw PLAIN token and its raw answer pass through; then requests flow and rules apply', async () => {
  const c = await WireClient.connect(kafka.bootstrap);
  try {
    kafka.chaos.addRule({ id: 'seen', action: { type: 'delay', ms: 0 } });
    expect(await c.request(ApiKey.SaslHandshake, 0, { mechanism: 'PLAIN' })).toMatchObject({ errorCode: 0 });
    c.writeRaw(rawFrame('\u0000bob\u0000b0b'));
    const answer = await c.nextFrame(3000);
    expect(answer).not.toBeNull(); // PLAIN's (empty) server token
    const id = c.send(ApiKey.Metadata, 1, { topics: null });
    expect(decodeResponse((await c.nextFrame(3000))!, ApiKey.Metadata, 1, id)).toMatchObject({ brokers: [expect.objectContaining({ nodeId: 0 })] });
    // The handshake and the Metadata were rules' business; the raw token was not.
    expect(kafka.chaos.events().map((e) => e.api)).toEqual(['SaslHandshake', 'Metadata']);
  } finally {
    c.close();
    kafka.chaos.clearRules();
  }
});

// SCRAM: two raw exchanges (PLAIN, one, is the test above).
test('kafka-python (SaslHandshake v0, raw tokens) authenticates with SCRAM-SHA-256 through the proxy', async () => {
  const mechanism = 'SCRAM-SHA-256';
  requireTool(debianPython);
  const summary = await runClient(debianPython, ['test/clients/kafka_python_sasl.py', kafka.bootstrap, 'sasl', mechanism, 'bob', 'b0b']);
  expect(summary.errors).toEqual([]);
  expect(summary.ok).toBe(true);
}, 60_000);
