#!/usr/bin/python3
"""librdkafka smoke test for a Kafka-compatible broker (kafkaesque's client matrix).

    /usr/bin/python3 test/clients/rdkafka_basic.py BOOTSTRAP TOPIC [options]

Run it with Debian's /usr/bin/python3 (python3-confluent-kafka is a Debian
package; another python may come first on PATH). Steps, each bounded in time:

  1. metadata   Producer.list_topics(TOPIC): broker ids, controller id, and the
                topic's partitions (leader, replicas, ISR). The topic is
                auto-created by this Metadata request if it does not exist.
  2. produce    N messages with acks=all, explicit partition i % P, then
                flush() and check every delivery report (no error, offsets
                ascending per partition).
  3. idempotent N more with enable.idempotence=true (InitProducerId, producer
                id/epoch/sequence in the batches), same checks.
                Skip with --no-idempotence.
  4. read back  a Consumer with group.id set (python's client requires one)
                but NO subscribe(), NO commits, NO stored offsets: assign()
                every partition at explicit offset 0 and read up to the high
                watermark. With explicit offsets librdkafka never needs
                OffsetFetch/JoinGroup; note that it may still send
                FindCoordinator in the background because group.id is set.
                Checks: every delivered (partition, offset) holds the value
                that was delivered there, count = 2N, order per partition.
                Records already in the topic before this run are counted as
                "preexisting" and otherwise ignored.

Prints progress on stderr and ONE JSON line on stdout (the summary), and exits
0 when everything checked out, 1 on a failed check, 2 on a usage error or a
timeout (the whole run is also bounded by an alarm at --timeout + 10 s). The
summary line and the alarm: compat_common.run_bounded.
"""

import argparse
import sys
import time

# No __pycache__ beside the sources when compat_common is imported.
sys.dont_write_bytecode = True

from compat_common import Failure, import_client, log, remaining, run_bounded  # noqa: E402

confluent_kafka = import_client("confluent_kafka", "python3-confluent-kafka")
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition  # noqa: E402

PROG = "rdkafka_basic"


def parse_args(argv):
    p = argparse.ArgumentParser(description="librdkafka produce/fetch smoke test (see module doc)")
    p.add_argument("bootstrap", help="bootstrap list, e.g. 127.0.0.1:9092,127.0.0.1:9093")
    p.add_argument("topic")
    p.add_argument("-n", "--messages", type=int, default=1000, help="messages per producer (default 1000)")
    p.add_argument("--partitions", type=int, default=None, help="expected partition count (checked if given)")
    p.add_argument("--brokers", type=int, default=None, help="expected broker count (checked if given)")
    p.add_argument("--no-idempotence", action="store_true", help="skip the idempotent producer step")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds for the whole run (default 60)")
    p.add_argument("--debug", default=None, help="librdkafka debug contexts, e.g. protocol,broker")
    p.add_argument("--client-id", default="kafkaesque-rdkafka-basic")
    args = p.parse_args(argv)
    if args.messages <= 0:
        p.error("--messages must be positive")
    return args


def base_conf(args):
    conf = {
        "bootstrap.servers": args.bootstrap,
        "client.id": args.client_id,
        "socket.timeout.ms": 10000,
        "log.connection.close": False,
    }
    if args.debug:
        conf["debug"] = args.debug
    return conf


def step_metadata(args, deadline, out):
    p = Producer({**base_conf(args), "allow.auto.create.topics": True})
    try:
        md = None
        # An auto-created topic may first come back without leaders: retry.
        while True:
            md = p.list_topics(topic=args.topic, timeout=min(10.0, remaining(deadline)))
            t = md.topics.get(args.topic)
            if t is not None and t.error is None and t.partitions and all(
                    pm.leader >= 0 and pm.error is None for pm in t.partitions.values()):
                break
            why = t.error if t is not None and t.error is not None else "no partitions / leaders yet"
            if time.monotonic() + 0.2 >= deadline:
                raise Failure(f"metadata for {args.topic}: {why}")
            time.sleep(0.2)
        brokers = sorted(md.brokers.values(), key=lambda b: b.id)
        out["brokers"] = [{"id": b.id, "host": b.host, "port": b.port} for b in brokers]
        out["controller_id"] = md.controller_id
        out["cluster_id"] = md.cluster_id
        parts = sorted(md.topics[args.topic].partitions.values(), key=lambda pm: pm.id)
        out["partitions"] = [{"id": pm.id, "leader": pm.leader, "replicas": list(pm.replicas),
                              "isrs": list(pm.isrs)} for pm in parts]
        log(PROG, f"brokers {[b.id for b in brokers]} (controller {md.controller_id}); "
            f"{args.topic}: {len(parts)} partitions, leaders {[pm.leader for pm in parts]}")
        ids = {b.id for b in brokers}
        problems = []
        if args.brokers is not None and len(brokers) != args.brokers:
            problems.append(f"expected {args.brokers} brokers, metadata has {len(brokers)}")
        if args.partitions is not None and len(parts) != args.partitions:
            problems.append(f"expected {args.partitions} partitions, metadata has {len(parts)}")
        if [pm.id for pm in parts] != list(range(len(parts))):
            problems.append(f"partition ids are not 0..{len(parts) - 1}: {[pm.id for pm in parts]}")
        for pm in parts:
            if pm.leader not in ids:
                problems.append(f"partition {pm.id} leader {pm.leader} is not a listed broker")
        if problems:
            raise Failure("; ".join(problems))
        return [pm.id for pm in parts]
    finally:
        p.flush(0)


def step_produce(args, deadline, name, extra_conf, partitions, out):
    """Produce N messages; returns {(partition, offset): value} from the delivery reports."""
    conf = {**base_conf(args), "acks": "all", "linger.ms": 5,
            "message.timeout.ms": int(max(1.0, min(30.0, remaining(deadline) - 1)) * 1000), **extra_conf}
    p = Producer(conf)
    delivered = {}
    errors = []
    by_partition = {}

    def on_delivery(err, msg):
        if err is not None:
            errors.append(f"{msg.partition()}: {err}")
            return
        delivered[(msg.partition(), msg.offset())] = msg.value()
        by_partition.setdefault(msg.partition(), []).append((msg.offset(), msg.value()))

    t0 = time.monotonic()
    for i in range(args.messages):
        value = f"{name}-{i:08d}".encode()
        part = partitions[i % len(partitions)]
        while True:
            try:
                p.produce(args.topic, value=value, key=f"k{i}".encode(), partition=part, on_delivery=on_delivery)
                break
            except BufferError:
                p.poll(0.05)
                remaining(deadline)
        p.poll(0)
    left = p.flush(min(30.0, remaining(deadline)))
    secs = time.monotonic() - t0
    result = {"delivered": len(delivered), "errors": errors[:10], "error_count": len(errors),
              "undelivered": left, "seconds": round(secs, 3)}
    out.setdefault("produce", {})[name] = result
    log(PROG, f"{name}: {len(delivered)}/{args.messages} delivered in {secs:.2f} s"
        + (f", {len(errors)} errors, first: {errors[0]}" if errors else "")
        + (f", {left} still queued" if left else ""))
    problems = []
    if errors:
        problems.append(f"{name}: {len(errors)} delivery errors, first: {errors[0]}")
    if left:
        problems.append(f"{name}: {left} messages not delivered within the timeout")
    if len(delivered) != args.messages and not errors and not left:
        problems.append(f"{name}: {len(delivered)} delivery reports for {args.messages} messages")
    # Within a partition, later messages got higher offsets, in produce order.
    for part, lst in by_partition.items():
        offs = [o for o, _ in lst]
        vals = [v for _, v in lst]
        if offs != sorted(offs) or len(set(offs)) != len(offs):
            problems.append(f"{name}: partition {part} delivery offsets not strictly ascending")
        if vals != sorted(vals):
            problems.append(f"{name}: partition {part} delivered out of produce order")
    if problems:
        raise Failure("; ".join(problems))
    return delivered


def step_read_back(args, deadline, partitions, expected, out):
    c = Consumer({**base_conf(args),
                  "group.id": f"{args.client_id}-unused",  # required by the python client; never joined
                  "enable.auto.commit": False,
                  "enable.auto.offset.store": False,
                  "auto.offset.reset": "earliest",
                  "enable.partition.eof": True,
                  "isolation.level": "read_uncommitted",
                  "fetch.wait.max.ms": 100})
    try:
        # Where each partition ends (after this run's produce).
        ends = {}
        for part in partitions:
            lo, hi = c.get_watermark_offsets(TopicPartition(args.topic, part),
                                             timeout=min(10.0, remaining(deadline)), cached=False)
            ends[part] = hi
        c.assign([TopicPartition(args.topic, part, 0) for part in partitions])
        got = {part: [] for part in partitions}
        pos = {part: 0 for part in partitions}
        pending = {part for part in partitions if ends[part] > 0}
        errors = []
        while pending:
            msg = c.poll(min(0.5, remaining(deadline)))
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    if pos[msg.partition()] >= ends[msg.partition()]:
                        pending.discard(msg.partition())
                    continue
                errors.append(str(msg.error()))
                if len(errors) > 20 or not msg.error().retriable():
                    raise Failure(f"consume error: {msg.error()}")
                continue
            part, off = msg.partition(), msg.offset()
            got[part].append((off, msg.value()))
            pos[part] = off + 1
            if pos[part] >= ends[part]:
                pending.discard(part)

        problems = []
        count = 0
        preexisting = 0
        per_partition = {}
        for part in partitions:
            lst = got[part]
            offs = [o for o, _ in lst]
            if offs != sorted(offs) or len(set(offs)) != len(offs):
                problems.append(f"partition {part}: offsets read back are not strictly ascending")
            ours = [(o, v) for o, v in lst if (part, o) in expected]
            preexisting += len(lst) - len(ours)
            count += len(ours)
            per_partition[str(part)] = {"read": len(lst), "ours": len(ours), "end": ends[part]}
            for o, v in ours:
                if expected[(part, o)] != v:
                    problems.append(f"partition {part} offset {o}: read {v!r}, delivered {expected[(part, o)]!r}")
                    break
            # Each producer's messages come back in produce order.
            for prefix in {v.split(b"-")[0] for _, v in ours}:
                seq = [v for _, v in ours if v.split(b"-")[0] == prefix]
                if seq != sorted(seq):
                    problems.append(f"partition {part}: {prefix.decode()} messages read back out of order")
        missing = len(expected) - count
        if missing:
            problems.append(f"{missing} delivered messages not read back")
        out["consume"] = {"read": sum(len(v) for v in got.values()), "ours": count, "expected": len(expected),
                          "preexisting": preexisting, "per_partition": per_partition, "errors": errors[:10]}
        log(PROG, f"read back {count}/{len(expected)} ({preexisting} preexisting) from {len(partitions)} partitions")
        if problems:
            raise Failure("; ".join(problems[:10]))
    finally:
        c.close()


def run(args, deadline, out):
    partitions = step_metadata(args, deadline, out)
    expected = dict(step_produce(args, deadline, "acks_all", {"enable.idempotence": False}, partitions, out))
    if not args.no_idempotence:
        expected.update(step_produce(args, deadline, "idempotent", {"enable.idempotence": True}, partitions, out))
    step_read_back(args, deadline, partitions, expected, out)


def main(argv):
    args = parse_args(argv)
    out = {"ok": False, "bootstrap": args.bootstrap, "topic": args.topic,
           "client": f"confluent-kafka {confluent_kafka.version()[0]}",
           "librdkafka": confluent_kafka.libversion()[0], "errors": []}
    run_bounded(out, args.timeout, lambda deadline: run(args, deadline, out))


if __name__ == "__main__":
    main(sys.argv[1:])
