// What the order-service tests need around the service: fresh topics, orders
// placed, a bounded wait, and the audit that says what "correct" means.
import type { Kafka } from 'kafkajs';
import type { ControlClient } from 'kafkaesque';
import type { Order } from '../src/order.js';
import type { OrderStore } from '../src/store.js';

export interface Scenario {
  ordersTopic: string;
  resultsTopic: string;
  groupId: string;
  /** The orders placed, in order. */
  orders: Order[];
}

/**
 * Topics and a group of the test's own, so that tests never see each other's
 * orders, and `count` orders placed before the service starts. One partition
 * of orders keeps the story easy to follow: they arrive as one batch.
 */
export async function scenario(control: ControlClient, kafka: Kafka, name: string, count: number): Promise<Scenario> {
  const ordersTopic = `orders-${name}`;
  const resultsTopic = `order-results-${name}`;
  await control.createTopic({ name: ordersTopic, partitions: 1 });
  await control.createTopic({ name: resultsTopic, partitions: 3 });
  const orders = Array.from({ length: count }, (_, i): Order => ({ orderId: `order-${i + 1}`, customer: `customer-${(i % 3) + 1}`, amount: 1000 + i }));
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({ topic: ordersTopic, acks: -1, messages: orders.map((o) => ({ key: o.orderId, value: JSON.stringify(o) })) });
  } finally {
    await producer.disconnect();
  }
  return { ordersTopic, resultsTopic, groupId: `order-service-${name}`, orders };
}

/** The group's committed offset of the orders partition (-1 when none). */
export async function committedOffset(control: ControlClient, s: Scenario): Promise<number> {
  const group = await control.group(s.groupId);
  return group.offsets.find((o) => o.topic === s.ordersTopic && o.partition === 0)?.offset ?? -1;
}

/** Waits until `ok()` holds, checking every 20 ms; throws after `timeoutMs`. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface Audit {
  /** Orders placed that the store never charged. */
  lostInStore: string[];
  /** Orders the store charged more than once. */
  duplicatedInStore: string[];
  /** Orders placed with no record in the results topic. */
  lostResults: string[];
  /** Orders with more than one record in the results topic. */
  duplicatedResults: string[];
}

/** Correct: every order placed is charged once in the store and has one record in the results topic. */
export const CORRECT: Audit = { lostInStore: [], duplicatedInStore: [], lostResults: [], duplicatedResults: [] };

/**
 * Compares the orders placed with the store's rows and with every record of
 * the results topic, read from the broker's log through the control API (so
 * a duplicate that a consumer might hide is counted).
 */
export async function audit(control: ControlClient, s: Scenario, store: OrderStore): Promise<Audit> {
  const resultKeys: string[] = [];
  const { partitions } = await control.topic(s.resultsTopic);
  for (const { partition } of partitions) {
    let page = await control.records(s.resultsTopic, partition, { limit: 1000 });
    for (;;) {
      for (const r of page.records) if (r.control === null && r.key !== null) resultKeys.push(r.key);
      if (page.records.length === 0 || page.nextOffset >= page.highWatermark) break;
      page = await control.records(s.resultsTopic, partition, { from: page.nextOffset, limit: 1000 });
    }
  }
  const charged = store.rows().map((r) => r.orderId);
  const placed = s.orders.map((o) => o.orderId);
  return {
    lostInStore: placed.filter((id) => !charged.includes(id)),
    duplicatedInStore: placed.filter((id) => charged.filter((c) => c === id).length > 1),
    lostResults: placed.filter((id) => !resultKeys.includes(id)),
    duplicatedResults: placed.filter((id) => resultKeys.filter((k) => k === id).length > 1),
  };
}
