#!/usr/bin/env bash
# Request attribution's throughput cost on the realistic application, in one command (see BENCHMARKS.md, "Request
# attribution's throughput cost"):
#
#   benchmarks/attribution-throughput.sh                                              # the JDK of `java` (or $JAVA_HOME)
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 benchmarks/attribution-throughput.sh  # another JDK
#
# Starts realistic-app in a child JVM with realistic-app's test classes on its classpath and
# --spring.main.sources=dev.cpuprofiler.attributionswitch.AttributionSwitchConfiguration (the starter's observation
# handler, switchable at run time by POST /attribution-switch?on=), loads it over loopback HTTP, warms it up, then
# for each round records one on-demand profile spanning four windows OFF, A, OFF, B (A/B = attribution ON and a
# CONTROL window with it off, swapped every other round). Ratio = a window's requests/s (and requests per CPU-second
# of the app) over the mean of the OFF windows around it; medians over the rounds. About 10 minutes with the
# defaults on 2 CPUs.
#
# Options, as -D system properties in $ATTRIBUTION_OPTS: attribution.rounds=20  attribution.windowSeconds=5
# attribution.settleSeconds=2  attribution.engine=<engine> (default: the starter's auto)  attribution.quietCpus=0.15
# (other processes' CPUs under which a window counts as quiet)  realistic.warmUpSeconds=60
# realistic.maxWarmUpSeconds=60  realistic.clients=4.
# Results: printed, and written to realistic-app/target/realistic/attribution-<jdk>-<time>.md.
set -euo pipefail
# realistic.sh's build and launch, with this benchmark's main class and options.
REALISTIC_MAIN=dev.cpuprofiler.realistic.AttributionThroughputBenchmark \
  REALISTIC_OPTS="-Dattribution.testClassesDirectory=realistic-app/target/test-classes ${ATTRIBUTION_OPTS:-}" \
  exec "$(dirname "$0")/realistic.sh"
