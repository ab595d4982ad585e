#!/usr/bin/python3
"""librdkafka against damaged record batches (kafkaesque's `corrupt` fault).

    /usr/bin/python3 test/clients/rdkafka_corrupt.py BOOTSTRAP TOPIC consume --expect N [options]
    /usr/bin/python3 test/clients/rdkafka_corrupt.py BOOTSTRAP TOPIC produce -n N [options]

Run it with Debian's /usr/bin/python3 (python3-confluent-kafka). It checks
nothing about the fault itself: it reports what the client saw, and the jest
test (test/e2e/chaos-corrupt-rdkafka.test.ts) asserts on that.

  consume  A Consumer with check.crcs=true assign()s partition --partition
           at offset 0 (group.id set, never joined, no commits) and polls
           until it has read --expect records or the timeout. Every message
           error is reported with its code name, offset and text (a batch
           failing its CRC32C check is `_BAD_MSG` at the batch's base offset).
  produce  A Producer (acks=all; --idempotence for enable.idempotence=true)
           sends N values to --partition one at a time, flushing after each,
           so that each goes in a Produce request of its own. Every delivery
           report is reported, and the librdkafka log lines (debug 'msg')
           that name the error (librdkafka calls CORRUPT_MESSAGE
           INVALID_MSG, "Broker: Invalid message"), to show what it did.

Prints progress on stderr and ONE JSON line on stdout, and exits 0 when the
run finished (whatever the client saw), 1 on an unexpected exception, 2 on
a usage error or a timeout (the run is also bounded by an alarm at
--timeout + 10 s). The summary line and the alarm: compat_common.run_bounded.
"""

import argparse
import logging
import sys
import time

# No __pycache__ beside the sources when compat_common is imported.
sys.dont_write_bytecode = True

from compat_common import import_client, log, run_bounded  # noqa: E402

confluent_kafka = import_client("confluent_kafka", "python3-confluent-kafka")
from confluent_kafka import Consumer, Producer, TopicPartition  # noqa: E402

PROG = "rdkafka_corrupt"


def parse_args(argv):
    p = argparse.ArgumentParser(description="librdkafka against damaged record batches (see module doc)")
    p.add_argument("bootstrap")
    p.add_argument("topic")
    p.add_argument("mode", choices=["consume", "produce"])
    p.add_argument("--partition", type=int, default=0)
    p.add_argument("--expect", type=int, default=0, help="consume: records to read before stopping")
    p.add_argument("-n", "--messages", type=int, default=1, help="produce: values to send")
    p.add_argument("--idempotence", action="store_true", help="produce: enable.idempotence=true")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds for the whole run (default 30)")
    p.add_argument("--client-id", default="kafkaesque-rdkafka-corrupt")
    return p.parse_args(argv)


def error_dict(err, **where):
    return {"name": err.name(), "code": err.code(), "text": err.str(), "retriable": err.retriable(),
            "fatal": err.fatal(), **where}


class Capture(logging.Handler):
    """Keeps librdkafka's log lines that mention a word."""

    def __init__(self, word):
        super().__init__()
        self.word = word
        self.lines = []

    def emit(self, record):
        line = record.getMessage()
        if self.word in line:
            self.lines.append(line)


def consume(args, deadline, out):
    client_errors = []
    c = Consumer({"bootstrap.servers": args.bootstrap, "client.id": args.client_id,
                  "group.id": f"{args.client_id}-unused",  # required by the python client; never joined
                  "check.crcs": True, "enable.auto.commit": False, "enable.auto.offset.store": False,
                  "auto.offset.reset": "earliest", "fetch.wait.max.ms": 100,
                  "socket.timeout.ms": 10000, "log.connection.close": False,
                  "error_cb": lambda err: client_errors.append(error_dict(err))})
    records, errors = [], []
    try:
        c.assign([TopicPartition(args.topic, args.partition, 0)])
        while len(records) < args.expect and time.monotonic() < deadline:
            msg = c.poll(0.2)
            if msg is None:
                continue
            if msg.error():
                errors.append(error_dict(msg.error(), partition=msg.partition(), offset=msg.offset()))
                log(PROG, f"message error at offset {msg.offset()}: {msg.error().name()}: {msg.error().str()}")
                continue
            records.append({"offset": msg.offset(), "value": msg.value().decode("utf-8", "replace")})
    finally:
        c.close()
    out.update({"records": records, "message_errors": errors, "client_errors": client_errors})
    log(PROG, f"read {len(records)}/{args.expect}, {len(errors)} message errors")
    if len(records) < args.expect:
        out["errors"].append(f"timed out having read {len(records)} of {args.expect} records")


def produce(args, deadline, out):
    capture = Capture("Invalid message")
    logger = logging.getLogger("rdkafka_corrupt")
    logger.addHandler(capture)
    logger.setLevel(logging.DEBUG)
    client_errors = []
    p = Producer({"bootstrap.servers": args.bootstrap, "client.id": args.client_id, "acks": "all",
                  "enable.idempotence": args.idempotence, "linger.ms": 5,
                  "message.timeout.ms": int(max(1.0, deadline - time.monotonic() - 2) * 1000),
                  "socket.timeout.ms": 10000, "log.connection.close": False, "debug": "msg,eos",
                  "logger": logger, "error_cb": lambda err: client_errors.append(error_dict(err))})
    delivered, failed = [], []

    def on_delivery(err, msg):
        if err is not None:
            failed.append(error_dict(err, value=msg.value().decode()))
        else:
            delivered.append({"offset": msg.offset(), "value": msg.value().decode()})

    left = 0
    for i in range(args.messages):
        p.produce(args.topic, value=f"value-{i}".encode(), partition=args.partition, on_delivery=on_delivery)
        left = p.flush(max(0.1, deadline - time.monotonic()))
        if left:
            break
    out.update({"delivered": delivered, "delivery_errors": failed, "client_errors": client_errors,
                "undelivered": left, "log": capture.lines[:20]})
    log(PROG, f"{len(delivered)} delivered, {len(failed)} failed, {left} left; "
        f"{len(capture.lines)} log lines name the error")
    if left:
        out["errors"].append(f"timed out with {left} messages neither delivered nor failed")


def main(argv):
    args = parse_args(argv)
    out = {"ok": False, "mode": args.mode, "client": f"confluent-kafka {confluent_kafka.version()[0]}",
           "librdkafka": confluent_kafka.libversion()[0], "errors": []}
    step = consume if args.mode == "consume" else produce
    run_bounded(out, args.timeout, lambda deadline: step(args, deadline, out))


if __name__ == "__main__":
    main(sys.argv[1:])
