#!/usr/bin/env bash
# What the starter costs the application it runs in, in memory and start-up, from outside, next to the profiler off
# and the Pyroscope Java agent (the method: Guest.java's javadoc, in src/main/java/dev/cpuprofiler/benchmarks/harness/):
#
#   benchmarks/guest.sh            # start-up (5 starts each) and memory idle / busy / after ten profiles: ~14 min
#   benchmarks/guest.sh --quick    # 2 starts each, shorter phases, 3 profiles: ~6 min
#   benchmarks/guest.sh --nmt [--quick]   # the memory part only, every JVM with Native Memory Tracking, plus the
#                                         # NMT categories and the loaded classes against none's: ~9 min (quick 4)
#   benchmarks/guest.sh --configs=none,ours,pyroscope,ours+async-profiler --starts=N
#
# Needs Linux, a JDK 17+ and Maven. Builds the benchmarks module and what it depends on (no tests, nothing
# installed; the build copies the Pyroscope agent to benchmarks/target/peers/), then runs
# dev.cpuprofiler.benchmarks.harness.Guest, which starts the bench app in child JVMs on 127.0.0.1 only, reads them
# with /proc and jcmd, and stops every one of them. Results: benchmarks/results/<timestamp>-guest[-nmt].md (also
# printed); raw logs and NMT summaries: benchmarks/target/bench-work/<timestamp>-guest/.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v java >/dev/null || { echo "guest.sh: java not found (a JDK 17+ is needed)"; exit 2; }
command -v mvn >/dev/null || { echo "guest.sh: mvn not found"; exit 2; }
[ -r /proc/self/smaps ] || { echo "guest.sh: needs Linux /proc"; exit 2; }

echo "[guest.sh] building the benchmarks module (mvn -pl benchmarks -am package -DskipTests)"
mvn -B -q -ntp -pl benchmarks -am package -DskipTests

CP="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
exec java -Xmx512m -cp "$CP" dev.cpuprofiler.benchmarks.harness.Guest "$@"
