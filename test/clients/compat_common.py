"""What the Python client scripts in test/clients/ share.

For the compatibility drivers (*_compat.py), the mirror of compat_common.mjs:
the command line, the messages of each scenario, the deadline and the one
JSON summary line. The scenarios and the report each one prints are
described in test/compat/README.md; the checks are made by the suite
(test/compat/), against the broker's own log and group state. The other
scripts (rdkafka_basic.py, rdkafka_corrupt.py) take their own command line
and use the client import, the log, the deadline and the summary line.

    /usr/bin/python3 test/clients/X_compat.py BOOTSTRAP SCENARIO TOPIC [-n N]
        [--partitions P] [--group G] [--txn-id ID] [--timeout S]
"""

import argparse
import importlib
import json
import os
import signal
import sys
import time

SCENARIOS = ["metadata", "produce-fetch", "group", "idempotent", "transactions", "consumer-group", "share-group"]


class Failure(Exception):
    pass


def import_client(module, package):
    """Imports a client's module, or prints a summary line naming the Debian package to install and exits 2."""
    try:
        return importlib.import_module(module)
    except ImportError as e:  # pragma: no cover
        print(json.dumps({"ok": False, "errors": [f"cannot import {module} ({e}); "
                                                 f"apt-get install -y {package} and run with /usr/bin/python3"]}), flush=True)
        sys.exit(2)


def parse_args(argv, prog):
    p = argparse.ArgumentParser(prog=prog, description="compatibility-suite driver (test/compat/README.md)")
    p.add_argument("bootstrap")
    p.add_argument("scenario", choices=SCENARIOS)
    p.add_argument("topic")
    p.add_argument("-n", type=int, default=200, help="messages (per transaction for 'transactions')")
    p.add_argument("--partitions", type=int, default=1, help="partitions of TOPIC (the suite creates it)")
    p.add_argument("--group", default=None)
    p.add_argument("--txn-id", default=None)
    p.add_argument("--timeout", type=float, default=40.0)
    args = p.parse_args(argv)
    if args.n <= 0 or args.partitions <= 0 or args.timeout <= 0:
        p.error("-n, --partitions and --timeout must be positive")
    args.group = args.group or f"{args.topic}-group"
    args.txn_id = args.txn_id or f"{args.topic}-txn"
    return args


def messages_for(tag, n, partitions):
    """Message i of a run: value '<tag>-000042', key 'k42', partition i % partitions."""
    return [{"key": f"k{i}", "value": f"{tag}-{i:06d}", "partition": i % partitions} for i in range(n)]


def log(prog, *a):
    print(f"{prog}:", *a, file=sys.stderr, flush=True)


def remaining(deadline, what="the run"):
    left = deadline - time.monotonic()
    if left <= 0:
        raise Failure(f"timed out during {what}")
    return left


def run_driver(args, client, body):
    """A compatibility driver's run: run_bounded with the summary line naming the client, scenario and topic."""
    out = {"ok": False, "client": client, "scenario": args.scenario, "topic": args.topic, "errors": []}
    run_bounded(out, args.timeout, lambda deadline: body(out, deadline))


def run_bounded(out, timeout, body):
    """Runs body(deadline), then prints `out` as the summary line and exits.

    `out` holds "ok" and "errors"; body fills in what it saw, and appends to
    errors or raises (Failure for a failed step). ok is no errors. Exits 0
    (ok), 2 when an error says "timed out", else 1. An alarm at timeout + 10 s
    prints what is known and exits, so a hung client cannot outlive the suite.
    """
    started = time.monotonic()
    deadline = started + timeout

    def finish(code):
        out["elapsed_s"] = round(time.monotonic() - started, 3)
        print(json.dumps(out), flush=True)
        # Clients may keep threads alive: leave without waiting for them.
        os._exit(code)

    def on_alarm(_sig, _frame):
        out["errors"].append(f"hard timeout ({timeout + 10:.0f} s)")
        finish(2)

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(int(timeout + 10))
    try:
        body(deadline)
        out["ok"] = not out["errors"]
    except Failure as e:
        out["errors"].append(str(e))
    except Exception as e:  # the client's own exceptions, and anything unexpected
        out["errors"].append(f"{type(e).__name__}: {e}")
    timed_out = any("timed out" in e or "hard timeout" in e for e in out["errors"])
    finish(0 if out["ok"] else 2 if timed_out else 1)
