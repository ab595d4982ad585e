// The service's database, kept in memory: one table of charged orders. It
// outlives a service instance (a restart keeps it), as a real database would.
import type { Order } from './order.js';

export interface OrderRow extends Order {
  /** Set once the order's result has been acknowledged by Kafka. */
  resultSent: boolean;
}

export interface OrderStoreOptions {
  /** Called after each row is added, like a database trigger; the tests use it to stop a service mid-batch. */
  onInsert?: (row: OrderRow, rowCount: number) => void;
}

export class OrderStore {
  private readonly table: OrderRow[] = [];

  constructor(private readonly options: OrderStoreOptions = {}) {}

  /** INSERT with no unique key: every call adds a row, so a second delivery charges twice. */
  insert(order: Order): OrderRow {
    return this.add(order);
  }

  /**
   * INSERT … ON CONFLICT (orderId) DO NOTHING: the first call adds the row,
   * later calls for the same order return that row unchanged.
   */
  insertOnce(order: Order): OrderRow {
    return this.table.find((r) => r.orderId === order.orderId) ?? this.add(order);
  }

  markResultSent(orderId: string): void {
    for (const row of this.table) if (row.orderId === orderId) row.resultSent = true;
  }

  rows(): readonly OrderRow[] {
    return this.table;
  }

  private add(order: Order): OrderRow {
    const row: OrderRow = { orderId: order.orderId, customer: order.customer, amount: order.amount, resultSent: false };
    this.table.push(row);
    this.options.onInsert?.(row, this.table.length);
    return row;
  }
}
