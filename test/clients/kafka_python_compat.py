#!/usr/bin/python3
"""kafka-python driver of the compatibility suite: Debian's python3-kafka 2.0.2
(the old client) or kafka-python 3.x from PyPI (test/clients/.venv).

    /usr/bin/python3 test/clients/kafka_python_compat.py BOOTSTRAP SCENARIO TOPIC [-n N]
        [--partitions P] [--group G] [--txn-id ID] [--timeout S]
    test/clients/.venv/bin/python test/clients/kafka_python_compat.py ...

One scenario per run (test/compat/README.md), one JSON summary line on stdout.
api_version is left unset, as most applications leave it: the client probes
the broker (ApiVersions) and picks its request versions from the guess, which
the summary reports as "api_version". kafka-python 2.0.2 has no idempotent
producer and no transactions (both came in 2.2): with it those scenarios are
refused here (exit 2) and the suite does not run them.
"""

import sys
import threading
import time

# No __pycache__ beside the sources when compat_common is imported.
sys.dont_write_bytecode = True

from compat_common import Failure, messages_for, parse_args, remaining, run_driver

try:
    import kafka
    from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
    from kafka.errors import RebalanceInProgressError
except ImportError:  # pragma: no cover
    print('{"ok": false, "errors": ["cannot import kafka: apt-get install -y python3-kafka, run with /usr/bin/python3"]}')
    sys.exit(2)

PROG = "kafka_python_compat"
# kafka-python 2.2+ has the idempotent and transactional producer (and turns
# idempotence on by default); 2.0.2 refuses the option as unknown.
HAS_IDEMPOTENCE = "enable_idempotence" in KafkaProducer.DEFAULT_CONFIG


def common(args, suffix=""):
    return {"bootstrap_servers": args.bootstrap.split(","), "client_id": f"compat-kafka-python-{args.scenario}{suffix}",
            "request_timeout_ms": 15000}


def metadata(args, out, deadline):
    admin = KafkaAdminClient(**common(args))
    try:
        # 2.0.2 resolves api_version when the client starts; 3.x keeps it on its connection manager.
        version = admin.config["api_version"] or getattr(getattr(admin, "_manager", None), "broker_version", None)
        out["api_version"] = ".".join(map(str, version)) if version else None
        cluster = admin.describe_cluster()
        topics = admin.describe_topics([args.topic])
    finally:
        admin.close()
    # The two lines name the fields differently: 2.0.2 its own names, 3.x the protocol's.
    out["brokers"] = sorted(b.get("node_id", b.get("broker_id")) for b in cluster["brokers"])
    out["controller"] = cluster.get("controller_id")
    t = next((t for t in topics if t.get("topic", t.get("name")) == args.topic), None)
    if t is None or t["error_code"] != 0:
        raise Failure(f"metadata for {args.topic}: {t['error_code'] if t else 'missing'}")
    parts = ({"id": p.get("partition", p.get("partition_index")), "leader": p.get("leader", p.get("leader_id"))} for p in t["partitions"])
    out["partitions"] = sorted(parts, key=lambda p: p["id"])


def produce(args, msgs, deadline, chunk=50, idempotent=False):
    """Sends msgs with acks=all, waiting for every acknowledgement chunk by chunk (several batches per partition)."""
    extra = {"enable_idempotence": idempotent} if HAS_IDEMPOTENCE else {}
    p = KafkaProducer(acks="all", linger_ms=5, **extra, **common(args, "-producer"))
    try:
        for i in range(0, len(msgs), chunk):
            futures = [p.send(args.topic, key=m["key"].encode(), value=m["value"].encode(), partition=m["partition"])
                       for m in msgs[i:i + chunk]]
            p.flush(timeout=min(15.0, remaining(deadline, "produce")))
            for f in futures:
                f.get(timeout=min(15.0, remaining(deadline, "produce")))  # raises the delivery error, if any
    finally:
        p.close(timeout=5)
    return len(msgs)


def read_back(args, out, deadline, done, isolation="read_uncommitted"):
    """No group: assign() every partition from the beginning and read until done(read)."""
    extra = {"isolation_level": isolation} if isolation != "read_uncommitted" else {}
    c = KafkaConsumer(group_id=None, enable_auto_commit=False, fetch_max_wait_ms=100, **extra, **common(args, "-reader"))
    out["api_version"] = ".".join(map(str, c.config["api_version"]))
    read = []
    try:
        c.assign([TopicPartition(args.topic, p) for p in range(args.partitions)])
        c.seek_to_beginning()
        while not done(read):
            remaining(deadline, f"read-back ({len(read)} records so far)")
            for tp, records in c.poll(timeout_ms=200).items():
                read.extend([tp.partition, r.offset, r.value.decode()] for r in records)
    finally:
        c.close(autocommit=False)
    return read


def produce_fetch(args, out, deadline, idempotent=False):
    msgs = messages_for(args.scenario, args.n, args.partitions)
    out["produced"] = produce(args, msgs, deadline, idempotent=idempotent)
    out["read"] = read_back(args, out, deadline, lambda r: len(r) >= len(msgs))


def transactions(args, out, deadline):
    p = KafkaProducer(transactional_id=args.txn_id, transaction_timeout_ms=30000, linger_ms=5,
                      max_block_ms=10000, **common(args, "-txn"))
    try:
        p.init_transactions()
        batches = [(messages_for(tag, args.n, args.partitions), commit)
                   for tag, commit in (("commit1", True), ("abort", False), ("commit2", True))]
        for msgs, commit in batches:
            p.begin_transaction()
            futures = [p.send(args.topic, key=m["key"].encode(), value=m["value"].encode(), partition=m["partition"]) for m in msgs]
            # Every record acknowledged before the end of the transaction, so that the aborted ones are in the log.
            p.flush(timeout=min(10.0, remaining(deadline, "flush")))
            for f in futures:
                f.get(timeout=min(10.0, remaining(deadline, "produce")))
            if commit:
                p.commit_transaction()
            else:
                p.abort_transaction()
    finally:
        p.close(timeout=5)
    out["produced"] = {"committed": 2 * args.n, "aborted": args.n}
    # commit2 comes after every aborted record: once all of it is read, an aborted record would have shown.
    want = {m["value"] for m in messages_for("commit2", args.n, args.partitions)}
    out["read"] = read_back(args, out, deadline, lambda r: sum(1 for x in r if x[2] in want) >= len(want), "read_committed")


def commit_through_rebalance(c, deadline):
    # Kafka answers a commit REBALANCE_IN_PROGRESS while the group rebalances, and the error says what
    # an application does: poll() to rejoin, then commit again (kafka-python keeps the positions of
    # partitions it keeps). A loaded CI run met one at this driver's stop; records that poll() returns
    # then come after the stop and are dropped, as in the loop below.
    while True:
        try:
            c.commit()
            return
        except RebalanceInProgressError:
            remaining(deadline, "a commit during a rebalance")
            c.poll(timeout_ms=100)


def group(args, out, deadline):
    # One thread per member: poll() blocks while a rebalance is in progress,
    # and the broker waits for every member to rejoin, so two members polled
    # from one thread would wait for each other until the rebalance timeout.
    stop = threading.Event()
    # Both members commit before either leaves: a member that closed first made the other rebalance
    # before its commit, and kafka-python 2.0 then committed the positions of its new assignment
    # (partitions it never read, at 0) over what the other member had read (a CI-like run saw it).
    committed = threading.Barrier(2)
    members = [{"name": name, "read": [], "assigned": None, "error": None, "committed": False} for name in ("a", "b")]

    def member(m):
        try:
            c = KafkaConsumer(group_id=args.group, enable_auto_commit=False, auto_offset_reset="earliest",
                              session_timeout_ms=10000, heartbeat_interval_ms=500, max_poll_interval_ms=10000,
                              fetch_max_wait_ms=100, **common(args, f"-{m['name']}"))
            m["api_version"] = ".".join(map(str, c.config["api_version"]))
            try:
                # The topic's metadata first, so the first join's metadata snapshot has it: kafka-python
                # 3.0.12 loses its SyncGroup answer when the leader rejoins for newer metadata and poll()
                # times out mid-join (join_group_async waits only while need_rejoin(); docs/clients.md).
                c.partitions_for_topic(args.topic)
                c.subscribe([args.topic])
                while not stop.is_set():
                    polled = c.poll(timeout_ms=100)
                    # The main thread stops the members once everything was read, and the first to
                    # close makes the other rebalance: a poll in flight then returns, from offsets
                    # never committed, records already read. That is this driver's shutdown, not the
                    # broker's delivery: drop them (a CI run saw 100 records "read twice" so).
                    if stop.is_set():
                        break
                    for tp, records in polled.items():
                        m["read"].extend([tp.partition, r.offset, r.value.decode()] for r in records)
                    m["assigned"] = sorted(tp.partition for tp in c.assignment() if tp.topic == args.topic)
                # Commit what this member read (the suite checks the committed offsets on the broker).
                commit_through_rebalance(c, deadline)
                m["committed"] = True
                try:
                    committed.wait(timeout=max(0.1, min(10.0, deadline - time.monotonic())))
                except threading.BrokenBarrierError:
                    pass
            finally:
                c.close(autocommit=False)
        except Exception as e:  # reported by the main thread
            m["error"] = f"{type(e).__name__}: {e}"

    threads = [threading.Thread(target=member, args=(m,), daemon=True) for m in members]
    for t in threads:
        t.start()

    def check():
        failed = next((m for m in members if m["error"]), None)
        if failed:
            raise Failure(f"member {failed['name']}: {failed['error']}")

    def split():
        check()
        a, b = members[0]["assigned"], members[1]["assigned"]
        return a and b and len(set(a) | set(b)) == args.partitions and len(a) + len(b) == args.partitions

    try:
        while not split():
            remaining(deadline, "both members to be assigned")
            time.sleep(0.05)
        out["assignedBeforeProduce"] = [m["assigned"] for m in members]
        msgs = messages_for(args.scenario, args.n, args.partitions)
        out["produced"] = produce(args, msgs, deadline, chunk=len(msgs))
        while sum(len(m["read"]) for m in members) < len(msgs):
            check()
            remaining(deadline, f"both members to read everything ({sum(len(m['read']) for m in members)} so far)")
            time.sleep(0.05)
    finally:
        stop.set()
        for t in threads:
            t.join(max(0.1, min(10.0, deadline - time.monotonic())))
        out["api_version"] = members[0].get("api_version")
        out["members"] = [{"name": m["name"], "assigned": m["assigned"], "read": list(m["read"])} for m in members]
    check()
    if not all(m["committed"] for m in members):
        raise Failure("a member did not finish its commit in time")


def main(argv):
    args = parse_args(argv, PROG)
    if args.scenario in ("idempotent", "transactions") and not HAS_IDEMPOTENCE:
        print(f'{{"ok": false, "errors": ["kafka-python {kafka.__version__} has no {args.scenario} producer"]}}')
        sys.exit(2)
    steps = {"metadata": metadata, "produce-fetch": produce_fetch, "group": group, "transactions": transactions,
             "idempotent": lambda a, o, d: produce_fetch(a, o, d, idempotent=True)}
    run_driver(args, f"kafka-python {kafka.__version__}", lambda out, deadline: steps[args.scenario](args, out, deadline))


if __name__ == "__main__":
    main(sys.argv[1:])
