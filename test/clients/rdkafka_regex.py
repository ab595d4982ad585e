#!/usr/bin/env python3
"""A KIP-848 regex subscriber, driven by test/e2e/kip848-regex.test.ts.

    test/clients/.venv/bin/python test/clients/rdkafka_regex.py BOOTSTRAP GROUP PATTERN COUNT

Run it with the venv's confluent-kafka 2.x (its bundled librdkafka has
group.protocol=consumer). It subscribe()s to PATTERN (a librdkafka regex
subscription starts with "^"; in KIP-848 mode librdkafka sends it as
ConsumerGroupHeartbeat v1's SubscribedTopicRegex), reads until COUNT
messages arrived, commits, closes (leaving the group) and prints one JSON
line: {"ok": bool, "messages": ["topic:partition:value", ...], "errors": [...]}.
Exit 0 when COUNT arrived, 1 otherwise (a 40 s deadline).
"""

import json
import sys
import time

from confluent_kafka import Consumer


def main():
    bootstrap, group, pattern, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    consumer = Consumer({
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "group.protocol": "consumer",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
    })
    consumer.subscribe([pattern])
    messages, errors = [], []
    deadline = time.monotonic() + 40
    try:
        while len(messages) < count and time.monotonic() < deadline:
            m = consumer.poll(0.2)
            if m is None:
                continue
            if m.error():
                errors.append(str(m.error()))
                continue
            messages.append(f"{m.topic()}:{m.partition()}:{m.value().decode()}")
        if messages:
            consumer.commit(asynchronous=False)
    finally:
        consumer.close()
    ok = len(messages) == count
    print(json.dumps({"ok": ok, "messages": sorted(messages), "errors": errors}), flush=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
