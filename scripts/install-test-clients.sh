#!/usr/bin/env bash
# Installs the non-npm Kafka clients the test suites drive (Debian packages):
# kcat and confluent-kafka-python (both on librdkafka), kafka-python, and for
# the compatibility suite Go with sarama's packaged sources (the sarama driver
# is built offline from them, in GOPATH mode) and a C compiler for its cgo
# dependency (zstd), and librdkafka-dev for the mock cluster that upstream
# mode's e2e test runs as a broker we did not write; a JDK and Maven for the
# Java client (kafka-clients from Maven Central) that the known-faults test
# drives, built into test/clients/java/ (git-ignored); Debian's chromium for the
# web view's browser tests (driven by playwright-core). Then today's clients
# of the compatibility suite, pinned: confluent-kafka-python and kafka-python
# from PyPI into test/clients/.venv, IBM/sarama and franz-go from the Go module
# proxy (test/clients/go/go.mod), kafka-clients 4 from Maven Central
# (test/clients/java/compat/). Nothing it downloads is committed (.gitignore).
# Does nothing when they are already there.
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
# The venv of the PyPI clients.
/usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
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
here="$(cd "$(dirname "$0")/.." && pwd)"
clients="$here/test/clients"
# Today's Python clients, pinned; each wheel brings what it needs (confluent-kafka bundles librdkafka).
PYPI_CLIENTS=(confluent-kafka==2.16.1 kafka-python==3.0.12)
venv="$clients/.venv"
if ! "$venv/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(any(m.version(n) != v for n, v in (a.split("==") for a in sys.argv[1:])))' "${PYPI_CLIENTS[@]}" 2>/dev/null; then
  echo "test clients: installing ${PYPI_CLIENTS[*]} into test/clients/.venv"
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv"
  timeout 300 "$venv/bin/pip" install -q --disable-pip-version-check --no-input "${PYPI_CLIENTS[@]}"
fi
# The Go drivers' modules (versions in go.mod, sums in go.sum); the suite builds them offline from this cache.
# Built once here too, into the build cache the suite uses, so that its own build is a cache hit
# (from nothing the compile takes a minute or two on 2 cores, out of the suite's time budget).
(cd "$clients/go" && export GOFLAGS=-mod=readonly GOTOOLCHAIN=local GOCACHE="${GOCACHE:-${TMPDIR:-/tmp}/kafkaesque-go-cache}" &&
  timeout 300 go mod download && timeout 600 go build ./...)
# The Kafka Streams application of test/e2e/kafka-streams.test.ts, rebuilt when its source changed.
if [ ! -f "$clients/java/streams/classes/WordCount.class" ] || [ "$clients/java/streams/WordCount.java" -nt "$clients/java/streams/classes/WordCount.class" ] || [ "$clients/java/streams/pom.xml" -nt "$clients/java/streams/classes/WordCount.class" ]; then
  [ "$clients/java/streams/pom.xml" -nt "$clients/java/streams/classes/WordCount.class" ] && rm -rf "$clients/java/streams/lib"
  timeout 300 sh "$clients/java/streams/build.sh"
fi
# The Java driver of the compatibility suite, rebuilt when its source changed.
if [ ! -f "$clients/java/compat/classes/Compat.class" ] || [ "$clients/java/compat/Compat.java" -nt "$clients/java/compat/classes/Compat.class" ] || [ "$clients/java/compat/pom.xml" -nt "$clients/java/compat/classes/Compat.class" ]; then
  [ "$clients/java/compat/pom.xml" -nt "$clients/java/compat/classes/Compat.class" ] && rm -rf "$clients/java/compat/lib"
  timeout 300 sh "$clients/java/compat/build.sh"
fi
# The Java share-group (KIP-932) driver, on the compat driver's jars; rebuilt when its source changed.
if [ ! -f "$clients/java/share/classes/Share.class" ] || [ "$clients/java/share/Share.java" -nt "$clients/java/share/classes/Share.class" ]; then
  timeout 120 sh "$clients/java/share/build.sh"
fi
