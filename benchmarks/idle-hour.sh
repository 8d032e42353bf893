#!/usr/bin/env bash
# The idle cost over a long span, measured from outside (issue 35: "idle at most 3 ms CPU a minute with every
# default, averaged over an hour"):
#
#   benchmarks/idle-hour.sh [minutes]      # default 60, after a 2-minute settle; JAVA=/path/to/java for another JDK
#
# Starts three copies of the benchmark app side by side, idle (no requests): two without the profiler
# (profiler.enabled=false; their difference is the noise floor of the whole-process figure) and one with every
# default. Every minute it reads each JVM's CPU from /proc/<pid>/stat (utime + stime, 10-ms ticks) and the
# profiler's and JFR's threads from their schedstat (ns, with wake-ups); at the end it prints ms per minute over the
# whole span. Results: benchmarks/results/<timestamp>-idle-hour.md (also printed).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-60}"
java="${JAVA:-java}"
command -v mvn >/dev/null || { echo "idle-hour.sh: mvn not found"; exit 2; }
[ -r /proc/self/stat ] || { echo "idle-hour.sh: needs Linux /proc"; exit 2; }

echo "[idle-hour] building the benchmarks module"
mvn -B -q -ntp -pl benchmarks -am package -DskipTests
CP="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
stamp="$(date -u +%Y%m%d-%H%M%S)"
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' with local changes')"
work="benchmarks/target/bench-work/$stamp-idle-hour"
mkdir -p "$work" benchmarks/results
out="benchmarks/results/$stamp-idle-hour.md"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT INT TERM

start() { # name, extra args...
  local name=$1; shift
  local port=$((20000 + RANDOM % 20000))
  "$java" -Xms512m -Xmx512m -cp "$CP" dev.cpuprofiler.benchmarks.app.BenchApplication --server.port=$port \
    --server.address=127.0.0.1 --spring.main.banner-mode=off \
    --management.endpoints.web.exposure.include=health,cpuprofiler "$@" > "$work/$name.log" 2>&1 &
  pids+=($!)
}
start none-a --profiler.enabled=false
start none-b --profiler.enabled=false
start default
names=(none-a none-b default)

proc_ms() { awk '{print ($14 + $15) * 10}' "/proc/$1/stat"; }           # ms, with 100 ticks a second
threads_ns() { # pid -> "cpu_ns wakeups" of cpuprofiler-* and JFR * threads
  local s=0 w=0 t n
  for t in /proc/$1/task/*; do
    n=$(cat "$t/comm" 2>/dev/null) || continue
    case "$n" in cpuprofiler-*|JFR*) read -r c _ k < "$t/schedstat" || continue; s=$((s + c)); w=$((w + k));; esac
  done
  echo "$s $w"
}

echo "[idle-hour] settling for 2 minutes (start-up, JIT, the profiler's 1-minute start-up grace)"
sleep 120
declare -A p0 t0 w0
for i in 0 1 2; do
  p0[$i]=$(proc_ms "${pids[$i]}"); read -r t0[$i] w0[$i] <<< "$(threads_ns "${pids[$i]}")"
done
begin=$(date +%s%N)
for m in $(seq 1 "$minutes"); do
  sleep 60
  line="[idle-hour] minute $m:"
  for i in 0 1 2; do
    read -r tn _ <<< "$(threads_ns "${pids[$i]}")"
    line+=" ${names[$i]} $(( $(proc_ms "${pids[$i]}") - p0[$i] )) ms (threads $(( (tn - t0[$i]) / 1000000 )) ms)"
  done
  echo "$line"
done
end=$(date +%s%N)
per_min() { awk -v v="$1" -v s="$(( end - begin ))" 'BEGIN { printf "%.2f", v / (s / 60e9) }'; }

{
  echo "# Idle cost over $minutes minutes"
  echo
  echo "Command: \`benchmarks/idle-hour.sh $minutes\` ($stamp UTC, $("$java" -version 2>&1 | head -1), commit $commit, as built at the start)."
  echo "Three idle copies of the benchmark app side by side after a 2-minute settle; CPU per minute over the whole span."
  echo
  echo "| app | whole process, ms/min (/proc/<pid>/stat) | profiler + JFR threads, ms/min (schedstat) | their wake-ups per minute |"
  echo "|---|---|---|---|"
  declare -A whole
  for i in 0 1 2; do
    read -r tn wn <<< "$(threads_ns "${pids[$i]}")"
    whole[$i]=$(per_min "$(( $(proc_ms "${pids[$i]}") - p0[$i] ))")
    echo "| ${names[$i]} | ${whole[$i]} | $(per_min "$(awk -v a="$tn" -v b="${t0[$i]}" 'BEGIN{print (a-b)/1e6}')") | $(per_min "$(( wn - w0[$i] ))") |"
  done
  echo
  awk -v a="${whole[0]}" -v b="${whole[1]}" -v d="${whole[2]}" 'BEGIN {
    printf "Every default above the mean of the two without: %.2f ms/min; the two without differ by %.2f ms/min (the noise floor of the whole-process figure).\n", d - (a + b) / 2, a - b }'
} | tee "$out"
echo "[idle-hour] written to $out"
