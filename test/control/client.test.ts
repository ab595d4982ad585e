// The typed client against nock: the request each method sends (method, path,
// encoding, query, body, headers) and how answers and failures map to values
// and ControlErrors. The real server is in server.test.ts and e2e.test.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from '../support/nock.js';
import { controlApiMock } from '../support/control-nock.js';
import { ControlClient, ControlError } from '../../src/control/client.js';

const BASE = 'http://control.test';
const client = new ControlClient(`${BASE}/`, { token: 't0k', timeoutMs: 2000 });
const api = controlApiMock(BASE, 't0k');

async function failure(p: Promise<unknown>): Promise<ControlError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ControlError);
  return err as ControlError;
}

describe('requests', () => {
  test('GET routes: path parameters are encoded, wrapped lists unwrapped', async () => {
    api().get('/v1/version').reply(200, { name: 'kafkaesque', version: '0.1.0', api: 'v1' });
    api().get('/v1/topics').reply(200, { topics: [{ name: 'a' }] });
    api().get('/v1/topics/a.b_c-1').reply(200, { name: 'a.b_c-1' });
    api().get('/v1/groups/g%20h%2Fi%C3%BC').reply(200, { groupId: 'g h/iü' });
    api().get('/v1/groups').reply(200, { groups: [] });
    api().get('/v1/transactions').reply(200, { transactions: [{ transactionalId: 'tx' }] });
    api().get('/v1/transactions/tx%3A1').reply(200, { transactionalId: 'tx:1' });
    api().get('/v1/topics/t/partitions/3/producers').reply(200, { producers: [{ producerId: 7 }] });
    api().get('/v1/cluster').reply(200, { clusterId: 'c' });
    expect(await client.version()).toEqual({ name: 'kafkaesque', version: '0.1.0', api: 'v1' });
    expect(await client.topics()).toEqual([{ name: 'a' }]);
    expect(await client.topic('a.b_c-1')).toEqual({ name: 'a.b_c-1' });
    expect(await client.group('g h/iü')).toEqual({ groupId: 'g h/iü' });
    expect(await client.groups()).toEqual([]);
    expect(await client.transactions()).toEqual([{ transactionalId: 'tx' }]);
    expect(await client.transaction('tx:1')).toEqual({ transactionalId: 'tx:1' });
    expect(await client.producers('t', 3)).toEqual([{ producerId: 7 }]);
    expect(await client.cluster()).toEqual({ clusterId: 'c' });
  });

  test('records and events send their query, leaving out what is unset', async () => {
    api().get('/v1/topics/t/partitions/0/records').query({ from: '5', limit: '2' }).reply(200, { records: [], nextOffset: 5 });
    api().get('/v1/topics/t/partitions/1/records').query({}).reply(200, { records: [] });
    api().get('/v1/events').query({ since: '4', wait: '100' }).reply(200, { events: [], next: 4 });
    expect(await client.records('t', 0, { from: 5, limit: 2 })).toEqual({ records: [], nextOffset: 5 });
    expect(await client.records('t', 1, { from: undefined })).toEqual({ records: [] });
    expect(await client.events({ since: 4, wait: 100 })).toEqual({ events: [], next: 4 });
  });

  test('POST and DELETE routes send JSON bodies', async () => {
    const rule = { id: 'r1', match: { api: 'Produce' }, trigger: { type: 'nth' as const, n: 2 }, action: { type: 'drop-response' } };
    api().post('/v1/topics', { name: 'x', partitions: 2, configs: { 'cleanup.policy': 'compact' } }).matchHeader('content-type', 'application/json').reply(201, { name: 'x' });
    api().delete('/v1/topics/x').reply(200, { deleted: 'x' });
    api().post('/v1/topics/x/partitions/0/leader', { to: 2, unclean: true }).reply(200, { leader: 2 });
    api().post('/v1/nodes/1/stop').reply(200, { nodeId: 1, alive: false });
    api().post('/v1/nodes/1/start').reply(200, { nodeId: 1, alive: true });
    api().post('/v1/faults', rule).reply(201, { ...rule, fired: 0 });
    api().get('/v1/faults').reply(200, { faults: [rule] });
    api().get('/v1/faults/r1').reply(200, rule);
    api().post('/v1/faults/r1/wait', { count: 3, timeoutMs: 500 }).reply(200, { ...rule, fired: 3 });
    api().delete('/v1/faults/r1').reply(200, { removed: 'r1' });
    api().delete('/v1/faults').reply(200, { removed: 4 });
    api().post('/v1/reset').reply(200, { rulesCleared: 0 });
    expect(await client.createTopic({ name: 'x', partitions: 2, configs: { 'cleanup.policy': 'compact' } })).toEqual({ name: 'x' });
    await client.deleteTopic('x');
    expect(await client.moveLeader('x', 0, { to: 2, unclean: true })).toEqual({ leader: 2 });
    expect(await client.stopNode(1)).toEqual({ nodeId: 1, alive: false });
    expect(await client.startNode(1)).toEqual({ nodeId: 1, alive: true });
    expect(await client.addFault(rule)).toMatchObject({ id: 'r1', fired: 0 });
    expect(await client.faults()).toEqual([rule]);
    expect(await client.fault('r1')).toEqual(rule);
    expect(await client.waitForFault('r1', { count: 3, timeoutMs: 500 })).toMatchObject({ fired: 3 });
    await client.removeFault('r1');
    expect(await client.clearFaults()).toBe(4);
    expect(await client.reset()).toEqual({ rulesCleared: 0 });
  });

  test('no token, no Authorization header; a base URL with a path prefix is kept', async () => {
    nock(BASE, { badheaders: ['authorization'] }).get('/kafkaesque/v1/version').reply(200, { name: 'kafkaesque' });
    expect(await new ControlClient(`${BASE}/kafkaesque`).version()).toEqual({ name: 'kafkaesque' });
  });

  test('fromEnv reads KAFKAESQUE_URL and KAFKAESQUE_TOKEN', async () => {
    nock(BASE).matchHeader('authorization', 'Bearer env').get('/v1/version').reply(200, { name: 'kafkaesque' });
    expect(await ControlClient.fromEnv({ KAFKAESQUE_URL: BASE, KAFKAESQUE_TOKEN: 'env' }).version()).toEqual({ name: 'kafkaesque' });
    expect(() => ControlClient.fromEnv({})).toThrow(/KAFKAESQUE_URL/);
  });

  test('followEvents pages on from each answer until aborted', async () => {
    api().get('/v1/events').query({ since: '0', wait: '50' }).reply(200, { events: [{ seq: 1, kind: 'fault' }, { seq: 2, kind: 'fault' }], next: 2 });
    api().get('/v1/events').query({ since: '2', wait: '50' }).reply(200, { events: [], next: 2 });
    api().get('/v1/events').query({ since: '2', wait: '50' }).reply(200, { events: [{ seq: 3, kind: 'node-stopped' }], next: 3 });
    const stop = new AbortController();
    const seen: number[] = [];
    for await (const e of client.followEvents({ waitMs: 50, signal: stop.signal })) {
      seen.push(e.seq);
      if (e.seq === 3) stop.abort();
    }
    expect(seen).toEqual([1, 2, 3]);
  });

  test('followEvents: an abort ends a long poll at once', async () => {
    api().get('/v1/events').query({ since: '0', wait: '10000' }).delay(1500).reply(200, { events: [{ seq: 1, kind: 'fault' }], next: 1 });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const seen: number[] = [];
    for await (const e of client.followEvents({ signal: stop.signal })) seen.push(e.seq);
    expect(seen).toEqual([]); // the loop ended before the poll's answer (which would have yielded seq 1)
    await new Promise((r) => setTimeout(r, 1500)); // let the abandoned poll finish before nock is cleaned up
  });

  test('the route types are checked at compile time', async () => {
    // @ts-expect-error the route needs its :name parameter
    await expect(client.request('GET /v1/topics/:name')).rejects.toThrow(TypeError);
    // @ts-expect-error not a route
    await expect(client.request('GET /v1/nope')).rejects.toThrow();
    // @ts-expect-error partitions is a number
    await expect(client.createTopic({ name: 'x', partitions: '2' })).rejects.toThrow();
  });
});

describe('errors', () => {
  test('an ErrorBody becomes a ControlError with status, error, field and reason', async () => {
    api().post('/v1/faults').reply(400, { error: 'invalid_rule', message: 'action.type: must name an action', field: 'action.type', reason: 'must name an action' });
    const e = await failure(client.addFault({ action: { type: '' } }));
    expect(e).toMatchObject({ status: 400, error: 'invalid_rule', field: 'action.type', reason: 'must name an action' });
    expect(e.message).toBe('POST /v1/faults: action.type: must name an action');
  });

  test.each([
    [404, 'not_found', "topic 'x' does not exist"],
    [409, 'topic_already_exists', "Topic 'x' already exists."],
    [503, 'proxy_disabled', 'the chaos proxy is off'],
    [401, 'unauthorized', 'a valid token is required'],
  ])('%i %s', async (status, error, message) => {
    api().get('/v1/topics/x').reply(status, { error, message });
    expect(await failure(client.topic('x'))).toMatchObject({ status, error, message: `GET /v1/topics/x: ${message}`, field: undefined });
  });

  test('a non-JSON error answer is http_error with the text; a non-JSON success is bad_response', async () => {
    api().get('/v1/version').reply(502, '<html>Bad Gateway</html>');
    expect(await failure(client.version())).toMatchObject({ status: 502, error: 'http_error', message: expect.stringContaining('Bad Gateway') });
    api().get('/v1/version').reply(200, 'ok');
    expect(await failure(client.version())).toMatchObject({ status: 200, error: 'bad_response' });
  });

  test('no connection is status 0 unreachable', async () => {
    api().get('/v1/version').replyWithError('connect ECONNREFUSED 127.0.0.1:1');
    expect(await failure(client.version())).toMatchObject({ status: 0, error: 'unreachable', message: expect.stringContaining('ECONNREFUSED') });
  });

  test('no answer in time is status 0 timeout', async () => {
    // A real server that never answers: nock's delayed replies do not abort cleanly.
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    nock.enableNetConnect('127.0.0.1');
    try {
      const quick = new ControlClient(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, { timeoutMs: 100 });
      expect(await failure(quick.version())).toMatchObject({ status: 0, error: 'timeout' });
    } finally {
      nock.disableNetConnect();
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });
});
