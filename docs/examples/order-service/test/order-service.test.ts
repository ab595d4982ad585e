// The order service under the faults that expose its three classic bugs.
// VARIANT=buggy or VARIANT=fixed (the default) picks the implementation; the
// same tests run against both. The fixed variant passes them all; the buggy
// one passes the first (it works on a good day) and fails one test per bug.
import { Kafka, logLevel } from 'kafkajs';
import { brokers, kafkaesque } from 'kafkaesque/jest';
import * as buggy from '../src/buggy/service.js';
import * as fixed from '../src/fixed/service.js';
import type { OrderService } from '../src/service.js';
import { OrderStore } from '../src/store.js';
import { CORRECT, audit, committedOffset, scenario, until, type Scenario } from './harness.js';

const variant = process.env.VARIANT ?? 'fixed';
const implementations = { buggy, fixed } as const;
if (variant !== 'buggy' && variant !== 'fixed') throw new Error(`VARIANT must be 'buggy' or 'fixed', got '${variant}'`);
const { startOrderService } = implementations[variant];

const control = kafkaesque(); // the control API of the cluster globalSetup started
const kafka = new Kafka({ clientId: `order-service-${variant}`, brokers: brokers(), logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 } });

// Every instance a test starts, stopped after it.
const started: OrderService[] = [];

/** Starts an instance on the scenario's topics, with heartbeats and fetch waits short enough that a rebalance is seen in a tenth of a second. */
async function start(s: Scenario, store: OrderStore): Promise<OrderService> {
  const service = await startOrderService({ kafka, store, ...s, consumer: { heartbeatInterval: 100, maxWaitTimeInMs: 100 } });
  started.push(service);
  return service;
}

afterEach(async () => {
  await control.clearFaults();
  await Promise.all(started.splice(0).map((service) => service.stop()));
});

test('on a good day, every order is charged once and has one result', async () => {
  const s = await scenario(control, kafka, 'good-day', 10);
  const store = new OrderStore();
  const service = await start(s, store);
  await until('every order handled and committed', async () => service.handled === 10 && (await committedOffset(control, s)) === 10);
  expect(await audit(control, s, store)).toEqual(CORRECT);
});

test('lost-ack: a result whose ack is lost is not written twice', async () => {
  const s = await scenario(control, kafka, 'lost-ack', 10);
  const store = new OrderStore();
  // From now on, the first Produce (the service's first result) is stored by
  // the broker, then its answer is lost and the connection reset.
  const {
    rules: [lostAck],
  } = await control.applyPreset('lost-ack');
  const service = await start(s, store);
  await control.waitForFault(lostAck!.id);
  await until('every order handled and committed', async () => service.handled === 10 && (await committedOffset(control, s)) === 10);
  expect(await audit(control, s, store)).toEqual(CORRECT);
});

test('redelivery: orders delivered again are not charged again', async () => {
  const s = await scenario(control, kafka, 'redelivery', 10);
  const store = new OrderStore();
  const service = await start(s, store);
  await until('every order handled and committed', async () => service.handled === 10 && (await committedOffset(control, s)) === 10);
  // As after a crash between processing and committing: the group's committed
  // offset goes back to the start and the group rebalances, so the service
  // reads all 10 orders again.
  const rewind = await control.addFault({
    match: { api: 'Heartbeat', groupId: s.groupId },
    trigger: { type: 'nth', n: 1 },
    action: { type: 'rewind', groupId: s.groupId, to: 'earliest' },
  });
  await control.waitForFault(rewind.id);
  await until('the 10 orders handled again and committed', async () => service.handled === 20 && (await committedOffset(control, s)) === 10);
  expect(await audit(control, s, store)).toEqual(CORRECT);
});

test('restart: an instance stopped in the middle of a batch loses no order', async () => {
  const s = await scenario(control, kafka, 'restart', 10);
  // The first instance is stopped (a deploy, a crash) while it charges the 4th
  // order of its first batch (all 10 orders): kafkajs lets it finish that order.
  const first: { service?: OrderService; stopped?: Promise<void> } = {};
  const store = new OrderStore({
    onInsert: (_row, rowCount) => {
      if (rowCount === 4 && first.stopped === undefined) first.stopped = first.service!.stop();
    },
  });
  first.service = await start(s, store);
  await until('the first instance to stop', () => first.stopped !== undefined);
  await first.stopped;
  expect(first.service.handled).toBe(4);

  // The restart: a new instance in the same group, on the same database.
  await start(s, store);
  await until('the group to catch up', async () => (await committedOffset(control, s)) === 10);
  expect(await audit(control, s, store)).toEqual(CORRECT);
});
