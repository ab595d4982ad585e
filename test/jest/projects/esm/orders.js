// What each test file of this project does, as ES modules under ESM jest.
import { Kafka, logLevel } from 'kafkajs';
import { brokers, kafkaesque } from 'kafkaesque/jest';
import { ControlClient } from 'kafkaesque';

export function ordersTest(name) {
  test(`${name}: an idempotent producer writes each order once, and the matchers say so`, async () => {
    const control = kafkaesque();
    expect(control).toBeInstanceOf(ControlClient); // one module graph: the class of 'kafkaesque' itself
    await control.reset();
    const kafka = new Kafka({ clientId: name, brokers: brokers(), logLevel: logLevel.NOTHING });
    const producer = kafka.producer({ idempotent: true });
    await producer.connect();
    await producer.send({ topic: 'orders', acks: -1, messages: [{ key: 'o-1', value: 'a' }, { key: 'o-2', value: 'b' }] });
    await producer.disconnect();
    await expect(['o-1', 'o-2']).toBeDeliveredExactlyOnce({ topic: 'orders' });
  });
}
