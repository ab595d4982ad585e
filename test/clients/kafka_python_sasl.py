#!/usr/bin/env python3
"""kafka-python (Debian python3-kafka) with SASL against a running cluster:
SaslHandshake v0 then raw SASL tokens, the form kafka-python uses. Produces N
messages and reads them back with assign(). One JSON line; exit 0 ok, 1 failed.

/usr/bin/python3 test/clients/kafka_python_sasl.py BOOTSTRAP TOPIC MECHANISM USER PASSWORD

With MECHANISM OAUTHBEARER, USER is the token (an unsecured JWT) and
PASSWORD is not used.
"""
import json
import sys

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.errors import KafkaError


def main(argv):
    bootstrap, topic, mechanism, user, password = argv[:5]
    timeout = float(argv[argv.index("--timeout") + 1]) if "--timeout" in argv else 30.0
    auth = {
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": mechanism,
        "sasl_plain_username": user,
        "sasl_plain_password": password,
    }
    if mechanism == "OAUTHBEARER":
        from kafka.oauth.abstract import AbstractTokenProvider

        class Token(AbstractTokenProvider):
            def token(self):
                return user

        auth = {"security_protocol": "SASL_PLAINTEXT", "sasl_mechanism": mechanism, "sasl_oauth_token_provider": Token()}
    errors = []
    try:
        producer = KafkaProducer(bootstrap_servers=bootstrap.split(","), acks="all", request_timeout_ms=int(timeout * 1000), **auth)
        futures = [producer.send(topic, value=f"sasl-{i}".encode(), partition=0) for i in range(20)]
        offsets = [f.get(timeout=timeout).offset for f in futures]
        producer.close()
        consumer = KafkaConsumer(bootstrap_servers=bootstrap.split(","), consumer_timeout_ms=3000, **auth)
        consumer.assign([TopicPartition(topic, 0)])
        consumer.seek_to_beginning()
        values = [m.value.decode() for m in consumer]
        consumer.close()
        if values[-20:] != [f"sasl-{i}" for i in range(20)]:
            errors.append(f"read back {values[-20:]}")
        print(json.dumps({"ok": not errors, "errors": errors, "offsets": offsets[:3], "read": len(values)}))
        return 0 if not errors else 1
    except KafkaError as e:
        print(json.dumps({"ok": False, "errors": [f"{type(e).__name__}: {e}"]}))
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
