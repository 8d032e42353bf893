#!/usr/bin/env bash
# How far CPU by endpoint reaches on a Spring Security application (issue #34: every buffer has a bound): the highest
# request rate secured-app's Spring MVC application serves on this machine, and whether a 30 s on-demand profile
# recorded at that rate keeps every request (its endpoints[].requests against what the load generator got answered,
# and no "request log filled" note). Spring Security opens about ten nested observations per request.
#
#   benchmarks/secured-reach.sh
#
# Needs wrk (apt-get install -y wrk), curl and python3. Builds secured-app and what it depends on (no tests), starts it
# on 127.0.0.1:$PORT with DEBUG logging of the request log, warms it up under wrk, then:
#   A. starts a 30 s session on the idle application, loads it for the session's first 27 s: every answered request
#      falls inside the session, so the profile's count must equal wrk's (plus those wrk left unanswered at its end);
#   B. loads it for 36 s and starts a 30 s session 3 s in: the whole session at the highest rate.
# The load is GET /actuator (the actuator's links, for role OPERATOR) as the operator logged in through Spring
# Security's login form: each request carries the session's cookie, as a browser's would. (With HTTP Basic
# credentials instead, every request checks the password with BCrypt, to which Spring Security upgrades {noop} at the
# first login: then BCrypt's cost sets the rate, tens of requests a second, not the requests' observations.)
#
# Settings, as environment variables: PORT=18080 CONNECTIONS=32 WRK_THREADS=2 WARMUP_SECONDS=30 SESSION_SECONDS=30
# SECURED_CLASSPATH (a classpath to run instead of building: e.g. a copy of an older build, to compare),
# APP_ARGS (more arguments for the application, e.g. --profiler.cpu.engine=jfr-execution).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18080}
CONNECTIONS=${CONNECTIONS:-32}
WRK_THREADS=${WRK_THREADS:-2}
WARMUP_SECONDS=${WARMUP_SECONDS:-30}
SESSION_SECONDS=${SESSION_SECONDS:-30}
for tool in java wrk curl python3; do
  command -v "$tool" >/dev/null || { echo "secured-reach.sh: $tool not found"; exit 2; }
done

WORK=$(mktemp -d)
if [[ -z "${SECURED_CLASSPATH:-}" ]]; then
  echo "[secured-reach] building secured-app and what it depends on (no tests)"
  mvn -B -q -ntp -pl secured-app -am compile dependency:build-classpath -Dmdep.includeScope=runtime \
    -Dmdep.outputFile="$WORK/classpath.txt"
  SECURED_CLASSPATH="secured-app/target/classes:$(cat "$WORK/classpath.txt")"
fi

BASE="http://127.0.0.1:$PORT"
USER=operator:operator-password
LOAD="$BASE/actuator"
ENDPOINT="GET /actuator"

java -cp "$SECURED_CLASSPATH" dev.cpuprofiler.secured.mvc.SecuredMvcApplication --server.port="$PORT" \
  --server.address=127.0.0.1 --logging.level.dev.cpuprofiler.internal.session.ProfilingSession=debug ${APP_ARGS:-} \
  > "$WORK/app.log" 2>&1 &
APP=$!
trap 'kill "$APP" 2>/dev/null || true; wait "$APP" 2>/dev/null || true' EXIT
for _ in $(seq 120); do
  curl -sf "$BASE/actuator/health" >/dev/null && break
  sleep 1
done
curl -sf "$BASE/actuator/health" >/dev/null \
  || { echo "secured-reach.sh: the application did not start"; cat "$WORK/app.log"; exit 1; }

# Logs in through the form as a browser does; the load sends the session's cookie.
login() {
  rm -f "$WORK/login-jar"
  curl -s -c "$WORK/login-jar" -b "$WORK/login-jar" "$BASE/login" -o "$WORK/login.html"
  local csrf
  csrf=$(grep -o 'name="_csrf" type="hidden" value="[^"]*"' "$WORK/login.html" | sed 's/.*value="//; s/"$//')
  curl -s -c "$WORK/login-jar" -b "$WORK/login-jar" -o /dev/null --data-urlencode "username=${USER%%:*}" \
    --data-urlencode "password=${USER#*:}" --data-urlencode "_csrf=$csrf" "$BASE/login"
  COOKIE="Cookie: JSESSIONID=$(awk '$6 == "JSESSIONID" {print $7}' "$WORK/login-jar")"
  [[ $(curl -s -o /dev/null -w '%{http_code}' -H "$COOKIE" "$LOAD") == 200 ]]
}
login || login || { echo "secured-reach.sh: the login's session is not let through to $LOAD"; exit 1; }

# wrk's answered requests and requests/s, from its summary.
load() {
  wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"$1s" -H "$COOKIE" "$LOAD" > "$WORK/wrk.txt"
  local answered rate
  answered=$(awk '/requests in/ {print $1}' "$WORK/wrk.txt")
  rate=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt")
  if grep -q 'Non-2xx' "$WORK/wrk.txt"; then echo "[secured-reach] wrk: $(grep 'Non-2xx' "$WORK/wrk.txt")" >&2; fi
  echo "$answered $rate"
}

# Starts a session as the status page does (asks for the CSRF token, sends it back with the POST).
start_session() {
  curl -s -c "$WORK/jar" -b "$WORK/jar" -u "$USER" -H 'Accept: application/json' -H 'CpuProfiler-Csrf: ask' \
    -D "$WORK/headers" -o /dev/null "$BASE/actuator/cpuprofiler"
  local header token
  header=$(awk -F': ' 'tolower($1)=="cpuprofiler-csrf-header" {print $2}' "$WORK/headers" | tr -d '\r')
  token=$(awk -F': ' 'tolower($1)=="cpuprofiler-csrf-token" {print $2}' "$WORK/headers" | tr -d '\r')
  curl -sf -c "$WORK/jar" -b "$WORK/jar" -u "$USER" -H 'Accept: application/json' -H "$header: $token" \
    -X POST "$BASE/actuator/cpuprofiler?duration=${SESSION_SECONDS}s" >/dev/null
}

# Waits for the session to end; prints the profile's requests to the loaded endpoint, its duration and its notes.
# (Python, not jq: a profile's tree is deeper than jq parses.)
profile() {
  for _ in $(seq 120); do
    curl -s -u "$USER" -H 'Accept: application/json' "$BASE/actuator/cpuprofiler" | grep -q '"session":null' && break
    sleep 2
  done
  curl -s -u "$USER" "$BASE/actuator/cpuprofiler/latest?format=json" | ENDPOINT="$ENDPOINT" python3 -c '
import json, os, sys
sys.setrecursionlimit(100000)
p = json.load(sys.stdin)
requests = [e["requests"] for e in p["endpoints"] if e["endpoint"] == os.environ["ENDPOINT"]]
notes = [n for n in p["notes"] if "request" in n or "endpoint" in n]
print("requests=%s duration=%s samples=%s engine=%s notes=%s" % (requests[0] if requests else None, p["duration"],
      p["samples"], p["engine"], notes))'
}

echo "[secured-reach] $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); java $(java -version 2>&1 | head -1)"
read -r answered rate < <(load "$WARMUP_SECONDS")
echo "[secured-reach] warm-up, no session: $answered requests answered, $rate requests/s"

start_session
sleep 1
read -r answered rate < <(load $((SESSION_SECONDS - 3)))
echo "[secured-reach] A: ${SESSION_SECONDS} s session, load for its first $((SESSION_SECONDS - 3)) s:" \
  "wrk $answered answered ($rate requests/s, $CONNECTIONS connections), profile $(profile)"

(sleep 3; start_session) &
STARTER=$!
read -r answered rate < <(load $((SESSION_SECONDS + 6)))
wait "$STARTER"
echo "[secured-reach] B: load for $((SESSION_SECONDS + 6)) s, a ${SESSION_SECONDS} s session from 3 s in:" \
  "wrk $answered answered ($rate requests/s), about $(awk -v r="$rate" -v s="$SESSION_SECONDS" 'BEGIN {printf "%d", r * s}') in the session;" \
  "profile $(profile)"
grep 'the request log holds' "$WORK/app.log" | sed 's/^.*: the request log holds/[secured-reach] the request log held/' || true
echo "[secured-reach] load average now $(cut -d' ' -f1-3 /proc/loadavg); application log: $WORK/app.log"
