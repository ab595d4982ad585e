// What both variants of the order service take and give, so that one test
// suite drives either.
import type { ConsumerConfig, Kafka } from 'kafkajs';
import type { OrderStore } from './store.js';

export interface OrderServiceConfig {
  kafka: Kafka;
  store: OrderStore;
  /** Orders are read from here, with the consumer group `groupId`. */
  ordersTopic: string;
  /** One result per order is written here. */
  resultsTopic: string;
  groupId: string;
  /** Extra kafkajs consumer settings (the tests shorten heartbeats and fetch waits). */
  consumer?: Omit<ConsumerConfig, 'groupId'>;
}

export interface OrderService {
  /** Deliveries handled so far, redeliveries included: a metric, and how a test knows the service has caught up. */
  readonly handled: number;
  /** Stops consuming after the order in hand (kafkajs finishes it), leaves the group, disconnects. */
  stop(): Promise<void>;
}
