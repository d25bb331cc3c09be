#!/usr/bin/env bash
# Runs protocol's fake-clock tests (every test that uses memnet's clock: protocol.TickClockForTest,
# a pump, memnet.NewClock, directly or through playKilled and advPlay) RUNS times under the race
# detector, in -short mode as the test command's race pass runs them, JOBS test binaries side by
# side (the tests mostly wait on their clocks' pumps). It prints the failures of any run and
# exits 1 if there is one. docs/PERFORMANCE.md ("The test command") has its duration.
#
#   ./scripts/stress-clock.sh                 # 200 runs
#   RUNS=20 JOBS=2 ./scripts/stress-clock.sh
#
# A new test that runs nodes on memnet's clock belongs in TESTS below.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/raceflags.sh # the race pass's build (the curve arithmetic uninstrumented)
RUNS="${RUNS:-200}"
JOBS="${JOBS:-4}"
TESTS='TestCheaters|TestDecisionClock|TestDepartBadLogs|TestDepartComesBack|TestDepartCorruption|TestDepartCorruptionAt|TestDepartLateEntry|TestDepartOtherGames|TestDepartPartition|TestDepartShareWithheld|TestDepartToy|TestDepartTwice|TestFormFifthNode|TestFormOlderRelease|TestFormSettings|TestFormTwoGeneses|TestJoinAdmits|TestJoinLimits|TestJoinWrongCodeRefused|TestLongPartition|TestNoClockNamesNobody|TestNoFetchStorm|TestNodesAbandoned|TestPauseEverySeatThenResume|TestPauseKeepPlaying|TestResumedAloneWritesItsEntry|TestSilentSeatFakeClock|TestTickClockAfterAGap|FuzzJoinServe'

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$SECONDS
go test "${RACE_FLAGS[@]}" -c -o "$work/protocol.test" ./protocol/
go test "${RACE_FLAGS[@]}" -c -o "$work/memnet.test" ./protocol/memnet/
"$work/memnet.test" -test.run '^TestClock' -test.count="$RUNS" > "$work/memnet.out" 2>&1 || {
  cat "$work/memnet.out"
  exit 1
}
# JOBS processes share the RUNS runs; each runs in protocol/ (the tests read testdata/).
per=$(((RUNS + JOBS - 1) / JOBS))
failed=0
pids=()
for j in $(seq 1 "$JOBS"); do
  n=$((RUNS - (j - 1) * per))
  [ "$n" -gt "$per" ] && n=$per
  [ "$n" -le 0 ] && break
  (cd protocol && exec "$work/protocol.test" -test.short -test.run "^($TESTS)\$" -test.count="$n" \
    -test.timeout="$((n * 10 + 10))m" > "$work/protocol-$j.out" 2>&1) &
  pids+=($!)
done
for j in "${!pids[@]}"; do
  if ! wait "${pids[$j]}"; then
    failed=1
    echo "== job $((j + 1)) failed:"
    grep -v '^=== \|^    --- PASS\|^--- PASS' "$work/protocol-$((j + 1)).out" | tail -200
  fi
done
echo "== $RUNS runs of protocol's fake-clock tests under -race, $JOBS at a time: $((SECONDS - start)) s"
exit "$failed"
