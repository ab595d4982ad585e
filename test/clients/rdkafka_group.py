#!/usr/bin/python3
"""A librdkafka consumer-group member, driven by a test (kafkaesque's client matrix).

    /usr/bin/python3 test/clients/rdkafka_group.py BOOTSTRAP TOPIC GROUP [options]

Run it with Debian's /usr/bin/python3 (python3-confluent-kafka). It
subscribe()s to TOPIC in GROUP (FindCoordinator, JoinGroup, SyncGroup,
Heartbeat, OffsetFetch, OffsetCommit, LeaveGroup on close) and consumes until
the driving process writes a line "stop" on its stdin, then commits
synchronously, closes (leaving the group) and exits.

stdout carries JSON lines, one per event, flushed at once, so the driver can
follow along:

  {"event": "assigned", "partitions": [..], "generation_hint": n}  on every assignment
  {"event": "revoked", "partitions": [..]}                          on every revocation
  {"event": "progress", "consumed": n}                              after each poll that got messages
  {"event": "summary", "ok": true|false, ...}                       last line: what it consumed per
                                                                    partition (offsets), its last
                                                                    assignment, commits, errors

Exit 0 when it stopped cleanly, 1 on a consume or commit error, 2 on a usage
error or a timeout (--timeout; also an alarm at --timeout + 15 s).
"""

import argparse
import json
import os
import select
import signal
import sys
import time

try:
    import confluent_kafka
    from confluent_kafka import Consumer, KafkaError, KafkaException
except ImportError as e:  # pragma: no cover
    print(json.dumps({"event": "summary", "ok": False,
                      "errors": [f"cannot import confluent_kafka ({e}); "
                                 "apt-get install -y python3-confluent-kafka and run with /usr/bin/python3"]}))
    sys.exit(2)


def log(*a):
    print("rdkafka_group:", *a, file=sys.stderr, flush=True)


def emit(obj):
    print(json.dumps(obj), flush=True)


def parse_args(argv):
    p = argparse.ArgumentParser(description="librdkafka consumer-group member (see module doc)")
    p.add_argument("bootstrap")
    p.add_argument("topic")
    p.add_argument("group")
    p.add_argument("--assignor", default="roundrobin", help="partition.assignment.strategy (default roundrobin)")
    p.add_argument("--session-timeout-ms", type=int, default=6000)
    p.add_argument("--heartbeat-interval-ms", type=int, default=500)
    p.add_argument("--timeout", type=float, default=60.0, help="seconds for the whole run (default 60)")
    p.add_argument("--debug", default=None, help="librdkafka debug contexts, e.g. cgrp,protocol")
    p.add_argument("--client-id", default="kafkaesque-rdkafka-group")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    out = {"event": "summary", "ok": False, "client": f"confluent-kafka {confluent_kafka.version()[0]}",
           "librdkafka": confluent_kafka.libversion()[0], "errors": []}
    started = time.monotonic()
    deadline = started + args.timeout

    def on_alarm(_sig, _frame):
        out["errors"].append(f"hard timeout ({args.timeout + 15:.0f} s)")
        emit(out)
        os._exit(2)

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(int(args.timeout + 15))

    conf = {
        "bootstrap.servers": args.bootstrap,
        "client.id": args.client_id,
        "group.id": args.group,
        "partition.assignment.strategy": args.assignor,
        "session.timeout.ms": args.session_timeout_ms,
        "heartbeat.interval.ms": args.heartbeat_interval_ms,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "fetch.wait.max.ms": 100,
        "socket.timeout.ms": 10000,
        "log.connection.close": False,
    }
    if args.debug:
        conf["debug"] = args.debug
    consumed = {}  # partition -> [offsets]
    assignment = []
    assignments = 0

    def on_assign(_c, partitions):
        nonlocal assignment, assignments
        assignment = sorted(p.partition for p in partitions)
        assignments += 1
        log(f"assigned {assignment}")
        emit({"event": "assigned", "partitions": assignment, "generation_hint": assignments})

    def on_revoke(_c, partitions):
        nonlocal assignment
        log(f"revoked {sorted(p.partition for p in partitions)}")
        emit({"event": "revoked", "partitions": sorted(p.partition for p in partitions)})
        assignment = []

    c = Consumer(conf)
    code = 1
    stop = False
    try:
        c.subscribe([args.topic], on_assign=on_assign, on_revoke=on_revoke)
        while not stop:
            if time.monotonic() >= deadline:
                out["errors"].append("timed out before 'stop'")
                code = 2
                break
            msgs = c.consume(num_messages=100, timeout=0.2)
            got = 0
            for m in msgs:
                if m.error():
                    if m.error().code() == KafkaError._PARTITION_EOF:
                        continue
                    out["errors"].append(str(m.error()))
                    continue
                consumed.setdefault(m.partition(), []).append(m.offset())
                got += 1
            if got:
                # Commit what was read before telling the driver, so its view is never ahead of the broker's.
                c.commit(asynchronous=False)
                emit({"event": "progress", "consumed": sum(len(v) for v in consumed.values())})
            ready, _, _ = select.select([sys.stdin], [], [], 0)
            if ready:
                line = sys.stdin.readline()
                stop = line == "" or line.strip() == "stop"
        out["assignment"] = assignment
        out["assignments"] = assignments
        out["consumed"] = {str(p): offs for p, offs in sorted(consumed.items())}
        out["count"] = sum(len(v) for v in consumed.values())
        if stop and not out["errors"]:
            out["ok"] = True
            code = 0
    except KafkaException as e:
        out["errors"].append(f"KafkaException: {e}")
    finally:
        try:
            c.close()
        except Exception as e:  # closing must not hide the summary
            out["errors"].append(f"close: {e}")
            out["ok"] = False
            code = 1
    out["elapsed_s"] = round(time.monotonic() - started, 3)
    signal.alarm(0)
    emit(out)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
