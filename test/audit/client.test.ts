// ControlClient.audit against nock: the request it sends and how answers map
// to values and ControlErrors. The route against a live cluster is in
// delivery.test.ts.
import { controlApiMock } from '../support/control-nock.js';
import { ControlClient, ControlError } from '../../src/control/client.js';
import type { AuditReport } from '../../src/audit/types.js';

const BASE = 'http://control.test';
const client = new ControlClient(BASE, { token: 't0k', timeoutMs: 2000 });
const api = controlApiMock(BASE, 't0k');

const report: AuditReport = {
  ok: false,
  anomalies: [{ kind: 'duplicate', in: 'processing', topic: 'orders', partition: 2, offsets: [1043], records: [{ topic: 'orders', partition: 2, offset: 1043 }], id: '1043', precededBy: [], message: "record '1043' of orders-2 (offset 1043) was processed twice" }],
  counts: { 'lost-write': 0, unseen: 0, duplicate: 1, 'aborted-read': 0, 'poll-skip': 0, 'non-monotonic-poll': 0, 'non-monotonic-send': 0, records: 2000, unacknowledged: 0, aborted: 0, processed: 2001, unmatched: 0 },
  topics: ['orders'],
  unmatched: [],
};

test('audit POSTs its input as JSON to /v1/audit and resolves to the report', async () => {
  const input = { topics: ['orders'], idFrom: { header: 'order-id' }, processed: ['1043', { topic: 'orders', partition: 2, offset: 1043, consumer: 'c1' }], sent: [{ id: '1043', producer: 'p' }] };
  api().post('/v1/audit', input).matchHeader('content-type', /application\/json/).reply(200, report);
  expect(await client.audit(input)).toEqual(report);
});

test('a refused input is a ControlError naming the field', async () => {
  api().post('/v1/audit').reply(400, { error: 'bad_parameter', message: 'processed[0].offset: expected a whole number >= 0', field: 'processed[0].offset' });
  const err = await client.audit({ processed: [{ topic: 'orders', partition: 0, offset: -1 }] }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ControlError);
  expect(err).toMatchObject({ status: 400, error: 'bad_parameter', field: 'processed[0].offset' });
});
