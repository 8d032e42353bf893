#!/usr/bin/env bash
# The benchmark harness, in one command (see BENCHMARKS.md):
#
#   benchmarks/run.sh            # everything, about 45-50 minutes on a 2-CPU machine
#   benchmarks/run.sh --quick    # everything, shorter, about 15-19 minutes (validates the harness)
#   benchmarks/run.sh --only=jmh,fidelity [--quick] [--repeats=N]
#   benchmarks/run.sh --only=peers [--quick]     # vs Pyroscope's agent, async-profiler's agent, JFR: ~20 min (quick 7)
#   benchmarks/run.sh --only=soak [--quick] [--soak-minutes=N]   # memory over time, 30 min (quick 3); not in a default run
#
# Needs a JDK 17+ and Maven. Builds the benchmarks module and what it depends on (no tests, nothing installed),
# then runs the Java harness, which starts every workload in child JVMs on 127.0.0.1, installs wrk with apt-get
# when it is missing (root), uses JDK 25 from /usr/lib/jvm/temurin-25-jdk-amd64 (or $JDK25_HOME) when present, and
# skips, with the reason printed, what it cannot do here. Results: benchmarks/results/<timestamp>-<mode>.md
# (also printed); raw logs: benchmarks/target/bench-work/<timestamp>/.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v java >/dev/null || { echo "run.sh: java not found (a JDK 17+ is needed)"; exit 2; }
command -v mvn >/dev/null || { echo "run.sh: mvn not found"; exit 2; }

echo "[run.sh] building the benchmarks module (mvn -pl benchmarks -am package -DskipTests)"
mvn -B -q -ntp -pl benchmarks -am package -DskipTests

CP="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
exec java -Xmx1g -cp "$CP" dev.cpuprofiler.benchmarks.harness.Harness "$@"
