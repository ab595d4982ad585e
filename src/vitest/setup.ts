// vitest setupFiles: points this worker's KAFKA_BROKERS, KAFKAESQUE_URL, …
// at the cluster kafkaesque/vitest started for it, before the test file and
// the code it imports read them.
import { inject } from 'vitest';
import { applyEndpoint, workerNumber } from '../fixture/endpoint.js';
import type {} from './global-setup.js'; // its ProvidedContext declaration

const endpoints = inject('kafkaesque');
if (!endpoints) throw new Error("kafkaesque/vitest/setup: no cluster was provided: add 'kafkaesque/vitest' to test.globalSetup");
const n = workerNumber();
const endpoint = endpoints[n - 1];
if (!endpoint) throw new RangeError(`kafkaesque/vitest/setup: this is worker ${n} (VITEST_POOL_ID), but globalSetup started ${endpoints.length} cluster(s), one per worker`);
applyEndpoint(endpoint);
