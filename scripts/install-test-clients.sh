#!/usr/bin/env bash
# Installs the non-npm Kafka clients the test suite drives (Debian packages):
# kcat and confluent-kafka-python (both on librdkafka), kafka-python.
# Does nothing when they are already there.
set -euo pipefail
need=()
command -v kcat >/dev/null 2>&1 || need+=(kcat)
/usr/bin/python3 -c 'import confluent_kafka' 2>/dev/null || need+=(python3-confluent-kafka)
/usr/bin/python3 -c 'import kafka' 2>/dev/null || need+=(python3-kafka)
if ((${#need[@]} == 0)); then
  echo "test clients: already installed"
  exit 0
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "test clients: installing ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
