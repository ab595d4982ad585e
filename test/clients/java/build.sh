#!/bin/sh
# Builds test/clients/java/KnownFaults.java (docs/clients.md): kafka-clients and
# its dependencies from Maven Central into lib/, the class into classes/.
# Needs a JDK (17+) and Maven. Neither folder is committed.
set -eu
cd "$(dirname "$0")"
mvn -q -B dependency:copy-dependencies -DoutputDirectory=lib
mkdir -p classes
javac -cp 'lib/*' -d classes KnownFaults.java
echo "built: test/clients/java/classes/KnownFaults.class with $(ls lib | grep kafka-clients)"
