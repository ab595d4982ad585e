#!/usr/bin/env python3
"""A KIP-932 share-group member on librdkafka, driven by test/e2e/share-groups-rdkafka.test.ts.

    test/clients/.venv/bin/python test/clients/rdkafka_share.py BOOTSTRAP TOPIC GROUP COUNT [explicit POISON release|reject]

Run it with the venv's confluent-kafka 2.16+ (its ShareConsumer: librdkafka's
share consumer). It subscribe()s to TOPIC in share group GROUP and polls
until COUNT distinct values arrived and nothing new came for 2 s (a 40 s
deadline). In implicit mode (the default) every record is accepted on the
next poll; with "explicit", each record is ACCEPTed and commit_sync()ed, but
the value POISON is RELEASEd (the retry loop) or REJECTed. Then close()
(which leaves the group) and one JSON line:
{"ok": bool, "deliveries": [[partition, offset, value, delivery_count], ...], "errors": [...]}.
"""

import json
import sys
import time

from confluent_kafka import ShareConsumer, AcknowledgeType


def main():
    bootstrap, topic, group, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    explicit = len(sys.argv) > 5 and sys.argv[5] == "explicit"
    poison = sys.argv[6] if explicit else None
    on_poison = sys.argv[7] if explicit else None
    consumer = ShareConsumer({
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "share.acknowledgement.mode": "explicit" if explicit else "implicit",
    })
    consumer.subscribe([topic])
    deliveries, errors, seen = [], [], set()
    deadline = time.monotonic() + 40
    last_new = time.monotonic()
    try:
        while time.monotonic() < deadline:
            if len(seen) >= count and time.monotonic() - last_new >= 2:
                break
            for m in consumer.poll(0.2):
                if m.error():
                    errors.append(str(m.error()))
                    continue
                value = m.value().decode()
                count_of = m.delivery_count() if hasattr(m, "delivery_count") else -1
                deliveries.append([m.partition(), m.offset(), value, count_of])
                if value not in seen:
                    seen.add(value)
                    last_new = time.monotonic()
                if explicit:
                    kind = AcknowledgeType.ACCEPT
                    if value == poison:
                        kind = AcknowledgeType.RELEASE if on_poison == "release" else AcknowledgeType.REJECT
                    consumer.acknowledge(m, kind)
            if explicit:
                consumer.commit_sync()
    except Exception as e:  # reported, not raised: the test reads the summary
        errors.append(repr(e))
    finally:
        consumer.close()
    ok = len(seen) >= count and not errors
    print(json.dumps({"ok": ok, "deliveries": deliveries, "errors": errors}))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
