// jest setupFiles: points this worker's KAFKA_BROKERS, KAFKAESQUE_URL, …
// at the cluster globalSetup started for it (src/fixture/endpoint.ts), before
// the test file and the code it imports read them. The preset
// (`preset: 'kafkaesque'`) lists it; by hand:
//
//   setupFiles: ['kafkaesque/jest/setup'],
import { useWorkerCluster } from '../fixture/endpoint.js';

useWorkerCluster();
