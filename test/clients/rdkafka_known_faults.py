#!/usr/bin/python3
"""librdkafka's side of the client faults of docs/clients.md.

    /usr/bin/python3 test/clients/rdkafka_known_faults.py BOOTSTRAP TOPIC [options]

The jest test (test/e2e/rdkafka-known-faults.test.ts) makes the topic, places
its leaders and adds the rule that springs the fault; this script only
produces and says what librdkafka reported. It produces --batches batches of
--per-batch messages, message i of batch b keyed '<prefix><b>-<i>' and sent to
partition i % --partitions, with acks=all; after each batch it lets the batch
go out (poll, then --gap seconds) so that the batches are separate Produce
requests in flight together. Then flush().

Prints ONE JSON line on stdout: "delivered" (key, partition, offset of every
delivery report without error), "failed" (key and error of the others),
"client_errors" (error_cb) and "undelivered" (neither, at the deadline).
Exits 0 when every message was delivered, 1 otherwise (compat_common.run_bounded).
"""

import argparse
import logging
import sys
import time

sys.dont_write_bytecode = True

from compat_common import import_client, log, run_bounded  # noqa: E402

confluent_kafka = import_client("confluent_kafka", "python3-confluent-kafka")
from confluent_kafka import Producer  # noqa: E402

PROG = "rdkafka_known_faults"


def parse_args(argv):
    p = argparse.ArgumentParser(description="produce and report deliveries (see module doc)")
    p.add_argument("bootstrap")
    p.add_argument("topic")
    p.add_argument("--prefix", default="m")
    p.add_argument("--batches", type=int, default=1)
    p.add_argument("--per-batch", type=int, default=4)
    p.add_argument("--partitions", type=int, default=1)
    p.add_argument("--gap", type=float, default=0.0, help="seconds between batches (default 0)")
    p.add_argument("--linger-ms", type=int, default=20)
    p.add_argument("--idempotence", action="store_true")
    p.add_argument("--client-id", default="rdkafka-known-faults")
    p.add_argument("--timeout", type=float, default=30.0)
    p.add_argument("--debug", default=None, help="librdkafka debug contexts (e.g. protocol,msg); their ProduceRequest lines go into the summary as 'produce_log'")
    return p.parse_args(argv)


def produce(args, deadline, out):
    client_errors = []
    produce_log = []
    debug = {}
    if args.debug:
        class Keep(logging.Handler):
            def emit(self, record):
                line = record.getMessage()
                if "Produce" in line:
                    produce_log.append(line)
        logger = logging.getLogger(PROG)
        logger.addHandler(Keep())
        logger.setLevel(logging.DEBUG)
        debug = {"debug": args.debug, "logger": logger}
    p = Producer({**debug, "bootstrap.servers": args.bootstrap, "client.id": args.client_id, "acks": "all",
                  "enable.idempotence": args.idempotence, "linger.ms": args.linger_ms, "batch.num.messages": args.per_batch,
                  "retry.backoff.ms": 50, "reconnect.backoff.ms": 50, "socket.timeout.ms": 5000,
                  "message.timeout.ms": int(max(1.0, deadline - time.monotonic() - 2) * 1000),
                  "log.connection.close": False,
                  "error_cb": lambda err: client_errors.append({"name": err.name(), "str": err.str()})})
    delivered, failed = [], []

    def on_delivery(err, msg):
        key = msg.key().decode()
        if err is not None:
            failed.append({"key": key, "error": err.name()})
        else:
            delivered.append({"key": key, "partition": msg.partition(), "offset": msg.offset()})

    for b in range(args.batches):
        for i in range(args.per_batch):
            p.produce(args.topic, key=f"{args.prefix}{b}-{i}".encode(), value=b"v", partition=i % args.partitions, on_delivery=on_delivery)
        p.poll(0)
        if args.gap:
            time.sleep(args.gap)
    left = p.flush(max(0.1, deadline - time.monotonic()))
    out.update({"delivered": delivered, "failed": failed, "client_errors": client_errors, "undelivered": left,
                **({"produce_log": produce_log} if args.debug else {})})
    log(PROG, f"{len(delivered)} delivered, {len(failed)} failed, {left} left")
    if failed or left:
        out["errors"].append(f"{len(failed)} delivery reports with an error, {left} messages neither delivered nor failed")


def main(argv):
    args = parse_args(argv)
    out = {"ok": False, "client": f"confluent-kafka {confluent_kafka.version()[0]}",
           "librdkafka": confluent_kafka.libversion()[0], "errors": []}
    run_bounded(out, args.timeout, lambda deadline: produce(args, deadline, out))


if __name__ == "__main__":
    main(sys.argv[1:])
