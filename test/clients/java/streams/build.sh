#!/bin/sh
# Builds test/clients/java/streams/WordCount.java, the Kafka Streams
# application of test/e2e/kafka-streams.test.ts: kafka-streams and its
# dependencies from Maven Central into lib/ (when not there), the class into
# classes/. Needs a JDK (17+) and Maven. Neither folder is committed.
set -eu
cd "$(dirname "$0")"
[ -n "$(ls lib/kafka-streams-*.jar 2>/dev/null)" ] || mvn -q -B dependency:copy-dependencies -DoutputDirectory=lib
rm -rf classes
mkdir -p classes
javac -nowarn -cp 'lib/*' -d classes WordCount.java
echo "built: test/clients/java/streams/classes/WordCount.class with $(ls lib | grep kafka-streams)"
