#!/usr/bin/env python3
"""Transactions with confluent-kafka-python (librdkafka) against a running cluster.

One transaction is committed and one aborted on TOPIC; the second also sends
consumer offsets for GROUP (send_offsets_to_transaction). Then a
read_committed and a read_uncommitted consumer (assign(), no group) read the
topic back. Prints one JSON summary line; exit 0 when every check passed,
1 on a failed check, 2 on usage errors or a timeout.

Run with Debian's python: /usr/bin/python3 test/clients/rdkafka_txn.py BOOTSTRAP TOPIC
"""
import argparse
import json
import signal
import sys
import time

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("bootstrap")
    p.add_argument("topic")
    p.add_argument("--group", default="rdk-txn-group")
    p.add_argument("-n", "--messages", type=int, default=20)
    p.add_argument("--timeout", type=float, default=40.0)
    args = p.parse_args(argv)
    signal.signal(signal.SIGALRM, lambda *_: (print(json.dumps({"ok": False, "errors": ["timeout"]})), sys.exit(2)))
    signal.alarm(int(args.timeout) + 15)
    errors = []
    summary = {"ok": False, "errors": errors}
    deadline = time.time() + args.timeout

    producer = Producer({
        "bootstrap.servers": args.bootstrap,
        "transactional.id": "rdk-txn",
        "transaction.timeout.ms": 30000,
        "client.id": "kafkaesque-rdkafka-txn",
    })
    t = max(1.0, deadline - time.time())
    producer.init_transactions(t)

    producer.begin_transaction()
    for i in range(args.messages):
        producer.produce(args.topic, key=f"k{i}".encode(), value=f"commit-{i}".encode())
    producer.commit_transaction(max(1.0, deadline - time.time()))

    # The second transaction also commits the group's input offset, then aborts.
    consumer_for_meta = Consumer({"bootstrap.servers": args.bootstrap, "group.id": args.group, "enable.auto.commit": False})
    producer.begin_transaction()
    for i in range(args.messages):
        producer.produce(args.topic, key=f"k{i}".encode(), value=f"abort-{i}".encode())
    producer.send_offsets_to_transaction([TopicPartition(args.topic, 0, 7)], consumer_for_meta.consumer_group_metadata(), max(1.0, deadline - time.time()))
    # abort_transaction purges what is not sent yet: flush so the aborted records are really in the log.
    producer.flush(max(1.0, deadline - time.time()))
    producer.abort_transaction(max(1.0, deadline - time.time()))

    # And a third that commits offsets: they must become visible.
    producer.begin_transaction()
    producer.produce(args.topic, key=b"last", value=b"commit-last")
    producer.send_offsets_to_transaction([TopicPartition(args.topic, 0, 3)], consumer_for_meta.consumer_group_metadata(), max(1.0, deadline - time.time()))
    producer.commit_transaction(max(1.0, deadline - time.time()))
    committed = consumer_for_meta.committed([TopicPartition(args.topic, 0)], timeout=max(1.0, deadline - time.time()))
    summary["committed_offset"] = committed[0].offset
    if committed[0].offset != 3:
        errors.append(f"committed offset {committed[0].offset}, expected 3")
    consumer_for_meta.close()

    def read(isolation):
        c = Consumer({
            "bootstrap.servers": args.bootstrap,
            "group.id": f"reader-{isolation}",
            "isolation.level": isolation,
            "enable.auto.commit": False,
            "enable.partition.eof": True,
        })
        c.assign([TopicPartition(args.topic, 0, 0)])
        values = []
        while time.time() < deadline:
            m = c.poll(0.5)
            if m is None:
                continue
            if m.error():
                if m.error().code() == -191:  # _PARTITION_EOF
                    break
                errors.append(f"{isolation}: {m.error()}")
                break
            values.append(m.value().decode())
        c.close()
        return values

    rc = read("read_committed")
    ru = read("read_uncommitted")
    summary["read_committed"] = len(rc)
    summary["read_uncommitted"] = len(ru)
    if any(v.startswith("abort-") for v in rc):
        errors.append("read_committed saw aborted records")
    if len(rc) != args.messages + 1:
        errors.append(f"read_committed got {len(rc)} records, expected {args.messages + 1}")
    if len(ru) != 2 * args.messages + 1:
        errors.append(f"read_uncommitted got {len(ru)} records, expected {2 * args.messages + 1}")
    summary["ok"] = not errors
    print(json.dumps(summary))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KafkaException as e:
        print(json.dumps({"ok": False, "errors": [str(e)]}))
        sys.exit(1)
