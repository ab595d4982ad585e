#!/usr/bin/env python3
# A librdkafka client for the benchmarks (confluent_kafka), driven by
# bench/rdkafka.mjs and bench/latency.mjs. It prints one JSON line on stdout
# when done; its own start-up (Python plus the library, ~100 ms) and the first
# Metadata are never inside a timed span.
#
#   rdkafka-client.py produce BOOTSTRAP TOPIC MESSAGES SIZE PARTITIONS
#       MESSAGES values of SIZE bytes (value i starts with i as 12 ASCII
#       digits), partition i % PARTITIONS, acks=all, not idempotent, no
#       compression, produce() in a tight loop (poll(0) only when the local
#       queue is full), then flush(). Timed from the first produce() to the
#       end of flush(): every message acknowledged.
#   rdkafka-client.py consume BOOTSTRAP TOPIC MESSAGES PARTITIONS
#       assign() every partition at offset 0 (no group is joined), consume()
#       in batches until MESSAGES arrived; verifies count, uniqueness and order
#       per partition of the sequence numbers. Timed from assign() to the last
#       message.
#   rdkafka-client.py latency BOOTSTRAP TOPIC COUNT SIZE
#       COUNT produces of one message to partition 0, acks=all, linger.ms=0,
#       each awaited (flush()) before the next: per-message microseconds.
#
# Output: {"seconds":..., "count":..., "errors":..., "clientCpu":..., ...}
import json
import resource
import sys
import time

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

SEQ_DIGITS = 12


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def out(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


errors = []


def on_error(err):
    if len(errors) < 5:
        errors.append(str(err))


class Deliveries:
    """A delivery callback that counts (and keeps the first errors of) failed deliveries."""

    def __init__(self):
        self.failed = 0

    def __call__(self, err, _msg):
        if err is not None:
            self.failed += 1
            on_error(err)


def producer(bootstrap, config):
    """A producer with acks=all, not idempotent, errors kept: config adds to that."""
    return Producer({
        "bootstrap.servers": bootstrap,
        "acks": "all",
        "enable.idempotence": False,
        "error_cb": on_error,
        **config,
    })


def produce(bootstrap, topic, messages, size, partitions):
    on_delivery = Deliveries()
    p = producer(bootstrap, {
        "compression.type": "none",
        "linger.ms": 5,
        "batch.num.messages": 10000,
        "queue.buffering.max.messages": 1000000,
        "queue.buffering.max.kbytes": 1048576,
        # on_delivery is called for failed deliveries only.
        "delivery.report.only.error": True,
    })
    # Connections and metadata first: not part of the timed span.
    p.list_topics(topic, timeout=10)
    filler = b"a" * (size - SEQ_DIGITS)
    values = [b"%012d" % i + filler for i in range(messages)]
    c0 = cpu()
    t0 = time.perf_counter()
    for i in range(messages):
        while True:
            try:
                p.produce(topic, values[i], partition=i % partitions, on_delivery=on_delivery)
                break
            except BufferError:
                p.poll(0.005)
    left = p.flush(60)
    t1 = time.perf_counter()
    out({"seconds": t1 - t0, "count": messages - left - on_delivery.failed, "undelivered": left, "failed": on_delivery.failed,
         "clientCpu": cpu() - c0, "errors": errors})


def consume(bootstrap, topic, messages, partitions):
    c = Consumer({
        "bootstrap.servers": bootstrap,
        "group.id": "bench-rdkafka",  # required by the client; no group is joined (assign, no commits)
        "enable.auto.commit": False,
        "enable.auto.offset.store": False,
        "fetch.wait.max.ms": 100,
        # The default (100000) stalls prefetching while this loop drains the queue: 5x slower.
        "queued.min.messages": 1000000,
        "fetch.max.bytes": 10485760,
        "max.partition.fetch.bytes": 1048576,
        "error_cb": on_error,
    })
    c.list_topics(topic, timeout=10)
    seen = bytearray(messages)
    last = [-1] * partitions
    count = dup = out_of_order = foreign = 0
    nbytes = 0
    c0 = cpu()
    t0 = time.perf_counter()
    c.assign([TopicPartition(topic, i, 0) for i in range(partitions)])
    deadline = t0 + 60
    while count < messages and time.perf_counter() < deadline:
        for m in c.consume(num_messages=10000, timeout=0.5):
            if m.error():
                on_error(m.error())
                continue
            v = m.value()
            nbytes += len(v)
            seq = int(v[:SEQ_DIGITS])
            part = m.partition()
            count += 1
            if not (0 <= seq < messages) or seq % partitions != part:
                foreign += 1
                continue
            if seen[seq]:
                dup += 1
            seen[seq] = 1
            if seq < last[part]:
                out_of_order += 1
            last[part] = seq
    t1 = time.perf_counter()
    c.close()
    missing = messages - sum(seen)
    out({"seconds": t1 - t0, "count": count, "bytes": nbytes, "clientCpu": cpu() - c0, "errors": errors,
         "verify": {"missing": missing, "dup": dup, "outOfOrder": out_of_order, "foreign": foreign,
                    "ok": missing == 0 and dup == 0 and out_of_order == 0 and foreign == 0}})


def latency(bootstrap, topic, count, size):
    on_delivery = Deliveries()
    p = producer(bootstrap, {"linger.ms": 0})
    p.list_topics(topic, timeout=10)
    value = b"x" * size
    # One unmeasured produce: the partition leader's connection is made here.
    p.produce(topic, value, partition=0, on_delivery=on_delivery)
    p.flush(10)
    us = []
    for _ in range(count):
        t0 = time.perf_counter()
        p.produce(topic, value, partition=0, on_delivery=on_delivery)
        if p.flush(10) != 0:
            on_delivery.failed += 1
        us.append((time.perf_counter() - t0) * 1e6)
    out({"micros": us, "failed": on_delivery.failed, "errors": errors})


def main(argv):
    mode = argv[1] if len(argv) > 1 else ""
    try:
        if mode == "produce" and len(argv) == 7:
            produce(argv[2], argv[3], int(argv[4]), int(argv[5]), int(argv[6]))
        elif mode == "consume" and len(argv) == 6:
            consume(argv[2], argv[3], int(argv[4]), int(argv[5]))
        elif mode == "latency" and len(argv) == 6:
            latency(argv[2], argv[3], int(argv[4]), int(argv[5]))
        else:
            sys.stderr.write("usage: see the header of bench/lib/rdkafka-client.py\n")
            return 2
    except KafkaException as e:
        sys.stderr.write("librdkafka: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
