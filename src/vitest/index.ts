// kafkaesque/vitest: the globalSetup (default export) and, for test files,
// the same helpers as kafkaesque/jest: this worker's control client and
// bootstrap list, and withFault.
export { default, kafkaesqueGlobalSetup, vitestWorkers, type VitestProjectLike } from './global-setup.js';
export { kafkaesque, brokers, withFault, type WithFaultOptions } from '../jest/index.js';
