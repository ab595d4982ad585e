#!/usr/bin/env bash
# Installs the non-npm Kafka clients the test suites drive (Debian packages):
# kcat and confluent-kafka-python (both on librdkafka), kafka-python, and for
# the compatibility suite Go with sarama's packaged sources (the sarama driver
# is built offline from them, in GOPATH mode) and a C compiler for its cgo
# dependency (zstd), and librdkafka-dev for the mock cluster that upstream
# mode's e2e test runs as a broker we did not write; a JDK and Maven for the
# Java client (kafka-clients from Maven Central) that the known-faults test
# drives, built into test/clients/java/ (git-ignored); Debian's chromium for the
# web view's browser tests (driven by playwright-core). Does nothing when they
# are already there.
set -euo pipefail
need=()
command -v kcat >/dev/null 2>&1 || need+=(kcat)
/usr/bin/python3 -c 'import confluent_kafka' 2>/dev/null || need+=(python3-confluent-kafka)
/usr/bin/python3 -c 'import kafka' 2>/dev/null || need+=(python3-kafka)
command -v go >/dev/null 2>&1 || need+=(golang-go)
[ -d /usr/share/gocode/src/github.com/Shopify/sarama ] || need+=(golang-github-shopify-sarama-dev)
command -v gcc >/dev/null 2>&1 || need+=(gcc libc6-dev)
# Upstream mode's e2e test builds librdkafka's mock cluster (bench/reference) against it.
[ -f /usr/include/librdkafka/rdkafka_mock.h ] || need+=(librdkafka-dev)
command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)
command -v mvn >/dev/null 2>&1 || need+=(maven)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if ((${#need[@]} == 0)); then
  echo "test clients: already installed"
else
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "test clients: installing ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# The Java client of test/e2e/known-faults-other-clients.test.ts (~6 s with a warm Maven cache).
if [ ! -f "$(dirname "$0")/../test/clients/java/classes/KnownFaults.class" ]; then
  sh "$(dirname "$0")/../test/clients/java/build.sh"
fi
