#!/usr/bin/python3
"""librdkafka (python3-confluent-kafka) driver of the compatibility suite.

    /usr/bin/python3 test/clients/rdkafka_compat.py BOOTSTRAP SCENARIO TOPIC [-n N]
        [--partitions P] [--group G] [--txn-id ID] [--timeout S]

One scenario per run (test/compat/README.md), one JSON summary line on stdout.
Run it with Debian's /usr/bin/python3, where python3-confluent-kafka lives.
Read-backs use assign() at offset 0 (group.id is set because the python
client requires one, but no group is joined).
"""

import sys

# No __pycache__ beside the sources when compat_common is imported.
sys.dont_write_bytecode = True

from compat_common import Failure, messages_for, parse_args, remaining, run_driver

try:
    import confluent_kafka
    from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
except ImportError:  # pragma: no cover
    print('{"ok": false, "errors": ["cannot import confluent_kafka: apt-get install -y python3-confluent-kafka, run with /usr/bin/python3"]}')
    sys.exit(2)

PROG = "rdkafka_compat"


def conf(args, **extra):
    c = {"bootstrap.servers": args.bootstrap, "client.id": f"compat-rdkafka-{args.scenario}",
         "socket.timeout.ms": 10000, "log.connection.close": False}
    c.update(extra)
    return c


def metadata(args, out, deadline):
    p = Producer(conf(args))
    md = p.list_topics(topic=args.topic, timeout=min(10.0, remaining(deadline)))
    t = md.topics.get(args.topic)
    if t is None or t.error is not None:
        raise Failure(f"metadata for {args.topic}: {t.error if t else 'missing'}")
    out["brokers"] = sorted(md.brokers)
    out["controller"] = md.controller_id
    out["partitions"] = [{"id": pm.id, "leader": pm.leader} for pm in sorted(t.partitions.values(), key=lambda pm: pm.id)]


def produce(producer, args, msgs, deadline, chunk=50):
    """Produces msgs (flushing every `chunk`, so that each partition gets several batches); raises on any delivery error."""
    errors = []
    acked = [0]

    def on_delivery(err, _msg):
        if err is not None:
            errors.append(str(err))
        else:
            acked[0] += 1

    for i in range(0, len(msgs), chunk):
        for m in msgs[i:i + chunk]:
            producer.produce(args.topic, key=m["key"].encode(), value=m["value"].encode(), partition=m["partition"], on_delivery=on_delivery)
        left = producer.flush(min(15.0, remaining(deadline, "produce")))
        if left:
            raise Failure(f"{left} messages still undelivered after flush")
    if errors:
        raise Failure(f"{len(errors)} delivery errors, first: {errors[0]}")
    return acked[0]


def read_back(args, isolation, done, deadline):
    """assign() every partition at offset 0 and read until done(read)."""
    c = Consumer(conf(args, **{"group.id": f"{args.group}-unused", "enable.auto.commit": False,
                               "isolation.level": isolation, "fetch.wait.max.ms": 100}))
    read = []
    try:
        c.assign([TopicPartition(args.topic, p, 0) for p in range(args.partitions)])
        while not done(read):
            m = c.poll(min(0.5, remaining(deadline, f"read-back ({len(read)} records so far)")))
            if m is None:
                continue
            if m.error():
                if m.error().code() == KafkaError._PARTITION_EOF:
                    continue
                raise Failure(f"consume error: {m.error()}")
            read.append([m.partition(), m.offset(), m.value().decode()])
    finally:
        c.close()
    return read


def produce_fetch(args, out, deadline, idempotent):
    msgs = messages_for(args.scenario, args.n, args.partitions)
    p = Producer(conf(args, **{"acks": "all", "linger.ms": 5, "enable.idempotence": idempotent,
                               "message.timeout.ms": 15000}))
    out["produced"] = produce(p, args, msgs, deadline)
    out["read"] = read_back(args, "read_uncommitted", lambda r: len(r) >= len(msgs), deadline)


def group(args, out, deadline, protocol="classic"):
    """Two members; protocol "consumer" is KIP-848's (consumer-group, served on the 4.x profiles)."""
    # The consumer protocol takes its timeouts from the broker and refuses these.
    timeouts = {"session.timeout.ms": 10000, "heartbeat.interval.ms": 500} if protocol == "classic" else {"group.protocol": "consumer"}
    # KIP-848 rebalances are incremental: the callbacks get only the partitions added or revoked.
    incremental = protocol == "consumer"
    members = []
    for name in ("a", "b"):
        m = {"name": name, "assigned": None, "read": []}

        def on_assign(_c, parts, m=m):
            added = {tp.partition for tp in parts if tp.topic == args.topic}
            m["assigned"] = sorted(set(m["assigned"] or []) | added) if incremental else sorted(added)

        def on_revoke(_c, parts, m=m):
            revoked = {tp.partition for tp in parts if tp.topic == args.topic}
            m["assigned"] = (sorted(set(m["assigned"] or []) - revoked) or None) if incremental else None

        m["consumer"] = Consumer(conf(args, **{
            "group.id": args.group, "client.id": f"compat-rdkafka-group-{name}", **timeouts,
            "auto.offset.reset": "earliest", "enable.auto.commit": False, "fetch.wait.max.ms": 100}))
        m["consumer"].subscribe([args.topic], on_assign=on_assign, on_revoke=on_revoke)
        members.append(m)

    def poll_all(timeout):
        # The rebalance callbacks and the fetched messages are both served from poll().
        for m in members:
            for msg in m["consumer"].consume(num_messages=100, timeout=timeout):
                if msg.error():
                    if msg.error().code() == KafkaError._PARTITION_EOF:
                        continue
                    raise Failure(f"member {m['name']}: {msg.error()}")
                m["read"].append([msg.partition(), msg.offset(), msg.value().decode()])

    def split():
        a, b = members[0]["assigned"], members[1]["assigned"]
        return bool(a) and bool(b) and len(set(a) | set(b)) == args.partitions and len(a) + len(b) == args.partitions

    try:
        while not split():
            remaining(deadline, "both members to be assigned")
            poll_all(0.1)
        out["assignedBeforeProduce"] = [m["assigned"] for m in members]
        msgs = messages_for(args.scenario, args.n, args.partitions)
        p = Producer(conf(args, **{"acks": "all", "linger.ms": 5}))
        out["produced"] = produce(p, args, msgs, deadline, chunk=len(msgs))
        while sum(len(m["read"]) for m in members) < len(msgs):
            remaining(deadline, f"both members to read everything ({sum(len(m['read']) for m in members)} so far)")
            poll_all(0.1)
        # Commit what each member read (the suite checks the committed offsets on the broker).
        for m in members:
            m["consumer"].commit(asynchronous=False)
    finally:
        out["members"] = [{"name": m["name"], "assigned": m["assigned"], "read": m["read"]} for m in members]
        for m in members:
            m["consumer"].close()


def share_group(args, out, deadline):
    """KIP-932 (confluent-kafka 2.16's ShareConsumer): the suite has set the group to read from the
    earliest; the records are produced first, then two share members poll in turn until every value
    was read (implicit mode: a poll accepts what the one before returned); close() sends the rest and
    leaves the group."""
    from confluent_kafka import ShareConsumer
    msgs = messages_for(args.scenario, args.n, args.partitions)
    p = Producer(conf(args, **{"acks": "all", "linger.ms": 5}))
    out["produced"] = produce(p, args, msgs, deadline, chunk=len(msgs))
    members = [{"name": name, "read": [], "consumer": ShareConsumer(conf(args, **{
        "group.id": args.group, "client.id": f"compat-rdkafka-share-{name}"}))} for name in ("a", "b")]
    for m in members:
        m["consumer"].subscribe([args.topic])
    seen = set()
    try:
        while len(seen) < len(msgs):
            remaining(deadline, f"both share members to read everything ({len(seen)} values so far)")
            for m in members:
                for msg in m["consumer"].poll(0.1):
                    if msg.error():
                        raise Failure(f"member {m['name']}: {msg.error()}")
                    m["read"].append([msg.partition(), msg.offset(), msg.value().decode()])
                    seen.add(msg.value().decode())
        # One more poll each accepts the last records.
        for m in members:
            m["consumer"].poll(0.1)
    finally:
        out["members"] = [{"name": m["name"], "read": m["read"]} for m in members]
        for m in members:
            m["consumer"].close()


def transactions(args, out, deadline):
    p = Producer(conf(args, **{"transactional.id": args.txn_id, "transaction.timeout.ms": 30000, "linger.ms": 5}))
    p.init_transactions(min(10.0, remaining(deadline)))
    commit1 = messages_for("commit1", args.n, args.partitions)
    aborted = messages_for("abort", args.n, args.partitions)
    commit2 = messages_for("commit2", args.n, args.partitions)
    for msgs, commit in ((commit1, True), (aborted, False), (commit2, True)):
        p.begin_transaction()
        for m in msgs:
            p.produce(args.topic, key=m["key"].encode(), value=m["value"].encode(), partition=m["partition"])
        if commit:
            p.commit_transaction(min(10.0, remaining(deadline, "commit")))
        else:
            # abort_transaction() purges what is not sent yet: flush so that the aborted records are in the log.
            if p.flush(min(10.0, remaining(deadline, "flush"))):
                raise Failure("aborted transaction's records not delivered before abort")
            p.abort_transaction(min(10.0, remaining(deadline, "abort")))
    out["produced"] = {"committed": len(commit1) + len(commit2), "aborted": len(aborted)}
    # The last committed records come after every aborted one: once all of commit2 is in, an aborted record would have shown.
    want = {m["value"] for m in commit2}
    out["read"] = read_back(args, "read_committed", lambda r: sum(1 for x in r if x[2] in want) >= len(want), deadline)


def main(argv):
    args = parse_args(argv, PROG)
    client = f"confluent-kafka {confluent_kafka.version()[0]} (librdkafka {confluent_kafka.libversion()[0]})"
    steps = {"metadata": metadata, "produce-fetch": lambda a, o, d: produce_fetch(a, o, d, False),
             "idempotent": lambda a, o, d: produce_fetch(a, o, d, True), "group": group, "transactions": transactions,
             "consumer-group": lambda a, o, d: group(a, o, d, "consumer"), "share-group": share_group}
    run_driver(args, client, lambda out, deadline: steps[args.scenario](args, out, deadline))


if __name__ == "__main__":
    main(sys.argv[1:])
