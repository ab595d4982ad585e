#!/bin/sh
# Builds test/clients/java/compat/Compat.java, the Java driver of the
# compatibility suite: kafka-clients and its dependencies from Maven Central
# into lib/ (when not there), the class into classes/. Needs a JDK (17+) and
# Maven. Neither folder is committed.
set -eu
cd "$(dirname "$0")"
[ -n "$(ls lib/kafka-clients-*.jar 2>/dev/null)" ] || mvn -q -B dependency:copy-dependencies -DoutputDirectory=lib
rm -rf classes
mkdir -p classes
javac -nowarn -cp 'lib/*' -d classes Compat.java
echo "built: test/clients/java/compat/classes/Compat.class with $(ls lib | grep kafka-clients)"
