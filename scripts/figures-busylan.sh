#!/usr/bin/env bash
# Figures for docs/PERFORMANCE.md ("A busy LAN"): RUNS games of N corruption bot processes on
# loopback (the first listens, the others dial it), each bot timed by GNU time. It prints, per
# game, its length from the first start to the last exit, the spread of the bots' exit times,
# and the most CPU seconds and peak RSS of a node; then the worst of each. (The time to form a
# table is BenchmarkFormLibp2p's.)
#   scripts/figures-busylan.sh 5 10     # ten 5-node games
#   scripts/figures-busylan.sh 7 10
set -euo pipefail
N="${1:-5}"; RUNS="${2:-10}"
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/corruption
go build -o "$bin" ./cmd/corruption
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work" "$(dirname "$bin")"' EXIT
worst_spread=0; worst_cpu=0; worst_rss=0
for run in $(seq 1 "$RUNS"); do
  dir="$work/$run"; mkdir -p "$dir"
  table="fig-$$-$run"
  start=$(date +%s.%N)
  for i in $(seq 0 $((N-1))); do
    args=(bot --table "$table" --players "$N" --listen /ip4/127.0.0.1/tcp/0 --no-mdns --json --data "$dir/d$i")
    if [ "$i" -gt 0 ]; then args+=(--peer "$addr"); fi
    ( $TIME -f "%e %U %S %M" -o "$dir/time$i" "$bin" "${args[@]}" >"$dir/out$i" 2>"$dir/err$i"; date +%s.%N >"$dir/end$i" ) &
    if [ "$i" -eq 0 ]; then
      for _ in $(seq 1 100); do addr=$(grep -o '/ip4/127.0.0.1/tcp/[0-9]*/p2p/[A-Za-z0-9]*' "$dir/err0" 2>/dev/null | head -1 || true); [ -n "$addr" ] && break; sleep 0.05; done
    fi
  done
  wait
  ends=$(cat "$dir"/end*); first=$(echo "$ends" | sort -n | head -1); last=$(echo "$ends" | sort -n | tail -1)
  spread=$(echo "$last - $first" | bc)
  cpu=$(awk '{print $2+$3}' "$dir"/time* | sort -n | tail -1)
  rss=$(awk '{print $4}' "$dir"/time* | sort -n | tail -1)
  game=$(echo "$last - $start" | bc)
  printf "run %2d: game %.2f s, exit spread %.3f s, CPU per node max %.2f s, RSS max %d KB\n" "$run" "$game" "$spread" "$cpu" "$rss"
  worst_spread=$(echo "if ($spread > $worst_spread) $spread else $worst_spread" | bc)
  worst_cpu=$(echo "if ($cpu > $worst_cpu) $cpu else $worst_cpu" | bc)
  [ "$rss" -gt "$worst_rss" ] && worst_rss=$rss
  grep -L '"finished":true' "$dir"/out* | sed 's/^/  not finished: /' || true
done
printf "%d runs of %d nodes: worst exit spread %.3f s, worst CPU per node %.2f s, worst RSS %d KB\n" "$RUNS" "$N" "$worst_spread" "$worst_cpu" "$worst_rss"
