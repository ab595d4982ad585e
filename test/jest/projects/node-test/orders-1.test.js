import { ordersTest } from './orders.js';

ordersTest('orders-1');
