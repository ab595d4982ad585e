// What travels on the topics: an order in, a result out. Both variants of
// the service share these; only the way they handle a delivery differs.
import type { KafkaMessage } from 'kafkajs';

/** A record of the `orders` topic (key: the order id). */
export interface Order {
  orderId: string;
  customer: string;
  /** In cents. */
  amount: number;
}

/** A record of the `order-results` topic (key: the order id). */
export interface OrderResult {
  orderId: string;
  status: 'accepted';
  charged: number;
}

export function parseOrder(message: KafkaMessage): Order {
  if (message.value === null) throw new Error(`order at offset ${message.offset} has no value`);
  return JSON.parse(message.value.toString()) as Order;
}

export function resultOf(order: Order): OrderResult {
  return { orderId: order.orderId, status: 'accepted', charged: order.amount };
}
