#!/bin/sh
# Builds test/clients/java/share/Share.java, the Java share-group (KIP-932)
# driver of test/e2e/share-groups*.test.ts and of the compatibility suite's
# share-group column. It compiles against the compat driver's jars
# (test/clients/java/compat/lib: kafka-clients 4.4.0), which
# scripts/install-test-clients.sh builds first. classes/ is not committed.
set -eu
cd "$(dirname "$0")"
[ -n "$(ls ../compat/lib/kafka-clients-*.jar 2>/dev/null)" ] || sh ../compat/build.sh
rm -rf classes
mkdir -p classes
javac -nowarn -cp '../compat/lib/*' -d classes Share.java
echo "built: test/clients/java/share/classes/Share.class with $(ls ../compat/lib | grep kafka-clients)"
