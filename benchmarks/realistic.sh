#!/usr/bin/env bash
# The realistic application benchmark, in one command (see BENCHMARKS.md, "Realistic application"):
#
#   benchmarks/realistic.sh                                              # the JDK of `java` (or $JAVA_HOME)
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 benchmarks/realistic.sh  # another JDK (also runs jfr-cpu-time)
#
# For each engine (jfr-execution, async-profiler, and jfr-cpu-time on JDK 25+) it starts realistic-app in a child
# JVM with --profiler.cpu.engine=<engine> and no JVM flag, loads it over loopback HTTP, records one 15 s on-demand
# profile and compares its figures with one run of async-profiler's own agent (ProfileFigures), then measures
# requests/s in equal windows with and without a session (pairs in alternating order); finally the start-up time and
# heap of an idle app with and without async-profiler on the classpath. About 9 minutes (JDK 17) to 12 (JDK 25) on 2 CPUs.
#
# Options, as -D system properties in $REALISTIC_OPTS: realistic.engines=a,b  realistic.rounds=4
# realistic.sessionSeconds=10  realistic.startup=false  realistic.startupRepeats=2  realistic.warmUpSeconds=60 (the test's is 10:
# the shop's JIT keeps compiling for about a minute on 2 CPUs)
# realistic.windowSeconds=15  realistic.clients=4.
# Results: printed, and written to realistic-app/target/realistic/realistic-<jdk>-<time>.md.
# $REALISTIC_MAIN runs another benchmark of realistic-app's test classes the same way (attribution-throughput.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -n "${JAVA_HOME:-}" ]]; then JAVA="$JAVA_HOME/bin/java"; else JAVA="$(command -v java)"; fi
[[ -x "$JAVA" ]] || { echo "realistic.sh: java not found (a JDK 17+ is needed)"; exit 2; }
command -v mvn >/dev/null || { echo "realistic.sh: mvn not found"; exit 2; }

# The reactor (-am), never ~/.m2's copies of the starter: the app must get this worktree's starter. Nothing installed.
echo "[realistic.sh] building realistic-app and what it depends on (no tests)"
mvn -B -q -ntp -pl realistic-app -am test-compile

APP=realistic-app/target
exec "$JAVA" -cp "$APP/test-classes:$APP/classes:$(cat "$APP/test-classpath.txt")" \
  -Drealistic.classesDirectory="$APP/classes" \
  -Drealistic.runtimeClasspathFile="$APP/runtime-classpath.txt" \
  -Drealistic.agentJar="$APP/agent/async-profiler.jar" \
  -Drealistic.workDirectory="$APP/realistic" \
  -Drealistic.warmUpSeconds=60 \
  ${REALISTIC_OPTS:-} \
  "${REALISTIC_MAIN:-dev.cpuprofiler.realistic.RealisticBenchmark}"
