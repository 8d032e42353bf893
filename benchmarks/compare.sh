#!/usr/bin/env bash
# "What changed" judged from outside, over the matrix the issue names (issue 37, "Judged by", first bullet):
#
#   benchmarks/compare.sh                          # platform threads on JDK 17, platform and virtual on JDK 25, 5 runs each
#   benchmarks/compare.sh --repeats=3 --only=25-virtual
#
# Each run starts a fresh OrbitLedgerApplication (two endpoints of known CPU per request, the starter as a user adds
# it) in a child JVM and drives it with an open-loop load at fixed rates: calm until the profiler has recorded its
# reference of normal, a calm profile, (a) GET /orbit at 8x the rate, (b) GET /ledger at 10x the cost, a calm
# profile again; each profile's `comparison` is judged by WhatChangedChecks. Not in `mvn verify`: its figures are
# noisy measurements of a loaded machine, and a run takes longer than the suite's budget allows (docs/development.md, "Tests");
# in-process, CpuProfilerReferenceTest records a reference and compares a profile with it. About 80 s a run: 15 runs take about 20 minutes on 2 CPUs. JDK 17 is `java` (or $JAVA_HOME), JDK 25
# $JDK25_HOME or /usr/lib/jvm/temurin-25-jdk-amd64.
# Results: benchmarks/results/<timestamp>-compare.md (also printed); application logs in
# benchmarks/target/compare-work/<timestamp>/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -n "${JAVA_HOME:-}" ]]; then JAVA="$JAVA_HOME/bin/java"; else JAVA="$(command -v java)"; fi
[[ -x "$JAVA" ]] || { echo "compare.sh: java not found (a JDK 17+ is needed)"; exit 2; }
command -v mvn >/dev/null || { echo "compare.sh: mvn not found"; exit 2; }

echo "[compare.sh] building the benchmarks module (mvn -pl benchmarks -am package -DskipTests)"
mvn -B -q -ntp -pl benchmarks -am package -DskipTests

commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' with local changes')"
CP="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
exec "$JAVA" -Xmx512m -Dcompare.commit="$commit" -cp "$CP" \
  dev.cpuprofiler.benchmarks.whatchanged.WhatChangedBenchmark "$@"
