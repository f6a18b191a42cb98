#!/usr/bin/env bash
# The LAN tables of docs/performance.md: every benchmark at 0, 0.5 ms and 2 ms one way, each
# client behind its own delay proxy (see Lan.java), short runs (seconds per cell).
#   mvn -B -o -q -pl benchmarks -am package -DskipTests
#   benchmarks/lan.sh [output-dir] [latencies]
# Writes one file per benchmark into output-dir (default target/lan-<time>).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-benchmarks/target/lan-$(date -u +%H%M%S)}
lan=${2:-0,0.5ms,2ms}
mkdir -p "$out"
# a copy, so a rebuild meanwhile cannot change the classes under a running benchmark
cp benchmarks/target/benchmarks.jar "$out/benchmarks.jar"
jar=$out/benchmarks.jar
run() {
    local name=$1; shift
    echo "== $name $* --lan $lan  ($(date -u +%H:%M:%S))"
    java -jar "$jar" "$@" --lan "$lan" > "$out/$name.txt" 2>&1 || echo "   $name failed: see $out/$name.txt"
}
run locks     locks 3
run rwlock    rwlock 3
run election  election 20 10
run queues    queues --quick
run discovery discovery 10
run config    config 10 --propagation
run group     group 1 10
echo "done $(date -u +%H:%M:%S): $out"
