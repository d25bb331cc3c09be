#!/usr/bin/env bash
# The project's test command (README.md, "Run the tests"), which CI runs through .ci/run: every
# check, in steps. Each step has a budget, in seconds on 2 cores with warm module and build
# caches (a fresh clone's cold build cache adds the compiling: docs/PERFORMANCE.md, "The test
# command"); at the end a table says how long each step took against its budget. A step over
# its budget is said there, not failed: a loaded machine is not a broken test.
#
#   tidy         go.mod and go.sum are tidy
#   vet          go vet
#   cross        the command type-checks on every release target of scripts/release.sh other
#                than this machine's (scripts/crosscheck: no compiling; release.sh builds them)
#   staticcheck  staticcheck, fetched from the module proxy
#   test         the whole suite: real processes, browsers, network namespaces
#   race         the concurrent packages again under the race detector, in -short mode (the
#                curve arithmetic uninstrumented: scripts/raceflags.sh)
#   wasm         the browser seat's own tests compiled for the browser (GOOS=js GOARCH=wasm),
#                run by Node through Go's go_js_wasm_exec: its storage and its runner; and
#                crypto's tests on the browser's group arithmetic, in Node and natively
#   fuzz         every fuzz target, FUZZTIME each (two at a time)
#
# The inner loop is `go test -short ./...` (README.md): every package's logic, without the
# real processes, the browsers and the namespaces, in under 2 minutes.
#
# FUZZTIME sets each fuzz target's budget: a count of executions by default (a wall-clock
# -fuzztime races Go 1.26's fuzz coordinator at its deadline, golang/go#75804, and fails without
# a finding on a loaded machine). The long run, every target a hundred times longer:
#   FUZZTIME=100000x FUZZ_ONLY=1 ./scripts/test.sh        (or FUZZTIME=10m, each target)
# FUZZ_ONLY=1 runs the fuzz step alone; NO_RACE=1 skips the race pass; STEPS="vet test" runs
# the steps named.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/raceflags.sh
# Every build is -trimpath: the build cache's keys then hold no checkout's directory, so that a
# fresh clone (as CI and the figures of docs/PERFORMANCE.md take it) reuses what another
# checkout compiled. Without it, each fresh clone compiled the project's own packages again in
# every step, plain, for tests, for the race detector, for fuzzing and for the browser: some
# 50 s of a fresh clone's 370 s on 2 cores (docs/PERFORMANCE.md, "The seventh session").
# And every link leaves out the DWARF debugging tables (-ldflags=-w: a third of a test binary's
# link, some 15 CPU-s of the command's 60-odd links; Go's stack traces, the race detector's
# reports and the profiler do not use them). A build with -ldflags of its own (TestVersion's)
# takes its own.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath -ldflags=-w"
FUZZTIME="${FUZZTIME:-1000x}"
STATICCHECK="honnef.co/go/tools/cmd/staticcheck@v0.8.2"
RELEASE_TARGETS="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"

if [ -z "${STEPS:-}" ]; then
  STEPS="tidy vet cross staticcheck test race wasm fuzz"
  [ -n "${NO_RACE:-}" ] && STEPS="${STEPS/ race/}"
  [ -n "${FUZZ_ONLY:-}" ] && STEPS="fuzz"
fi

# One corruption binary for the tests that run it as a process, in both passes
# (cmd/corruption/main_test.go takes it from CORRUPTION_BIN instead of building its own).
work="$(mktemp -d)"
export CORRUPTION_BIN="$work/corruption"

names=() budgets=() took=() states=()
report() {
  local status=$?
  rm -rf "$work"
  [ ${#names[@]} -eq 0 ] && return
  printf '\n== timing: seconds on this machine; budgets for 2 cores with warm caches\n'
  printf '%-12s %6s %7s\n' step took budget
  local total=0 budget_total=0
  for i in "${!names[@]}"; do
    local note=""
    [ "${took[$i]}" -gt "${budgets[$i]}" ] && note="  over budget"
    [ "${states[$i]}" != ok ] && note="  ${states[$i]}"
    printf '%-12s %6s %7s%s\n' "${names[$i]}" "${took[$i]}" "${budgets[$i]}" "$note"
    total=$((total + took[i])) budget_total=$((budget_total + budgets[i]))
  done
  printf '%-12s %6s %7s\n' total "$total" "$budget_total"
  if [ "$status" -eq 0 ]; then echo "== all tests passed"; fi
}
trap report EXIT

# step NAME BUDGET COMMAND...: runs a step and records its time; a failed step ends the run.
step() {
  local name=$1 budget=$2
  shift 2
  case " $STEPS " in *" $name "*) ;; *) return 0 ;; esac
  echo "== $name (budget ${budget}s)"
  local start=$SECONDS state=ok
  "$@" || state=FAILED
  names+=("$name") budgets+=("$budget") took+=($((SECONDS - start))) states+=("$state")
  [ "$state" = ok ]
}

cross() {
  local here targets=()
  here="$(go env GOOS)/$(go env GOARCH)"
  for t in $RELEASE_TARGETS; do [ "$t" != "$here" ] && targets+=("$t"); done
  go run ./scripts/crosscheck "${targets[@]}"
}

tests() {
  # The step is CPU-bound on 2 cores: it takes its CPU seconds over two, plus whatever a long
  # package still runs alone at the end. The two long packages start first, each in a go test
  # of its own, beside the others two at a time: the command's package (real processes,
  # browsers, namespaces), four of its tests at a time (they wait on their processes, their
  # browser and real clocks for much of their time), and protocol's (behind the engines'
  # packages, in the order of go list, it used to start some 45 s late and end alone). Their
  # output is printed when they end.
  local status=0
  # protocol's tests that wait on real time (PROTO_WAIT) start at once in a go test of their
  # own, all side by side: they use a core for a fifth of their time, and behind the others
  # they ran last, some 30 s of the step with the machine all but idle.
  background test-wait go test -count=1 -parallel 8 -timeout 30m -run "^($PROTO_WAIT)\$" ./protocol/
  background test-protocol go test -count=1 -timeout 30m -skip "^($PROTO_WAIT)\$" ./protocol/
  # The command's package: its test binary built once, run twice. The README's evening
  # (TestReadmeEvening, the longest test of the step: a whole game in three browser pages, then
  # the demo) starts at once in a run of its own: inside the package's run it waited for the
  # package's tests that are not parallel (about 50 s) and for a slot among the parallel ones,
  # and ended the step alone. The package's other tests run beside it, four at a time.
  go build -o "$CORRUPTION_BIN" ./cmd/corruption
  if go test -c -o "$work/cmd.test" ./cmd/corruption; then
    background test-evening cmd_test evening -test.run '^TestReadmeEvening$'
    background test-cmd cmd_test others -test.skip '^TestReadmeEvening$' -test.parallel 4
  else
    status=1
  fi
  go test -count=1 -p 2 -timeout 30m $(go list ./... | grep -v '^corruption/cmd/corruption$\|^corruption/protocol$') || status=1
  finish test-wait || status=1
  finish test-protocol || status=1
  if [ -x "$work/cmd.test" ]; then
    finish test-cmd || status=1
    finish test-evening || status=1
  fi
  return "$status"
}

# cmd_test WHAT FLAGS...: runs the command's package's test binary (built by tests) in the
# package's directory, as go test does, and says how it ended and how long it took.
cmd_test() {
  local what=$1 start=$SECONDS
  shift
  if (cd cmd/corruption && "$work/cmd.test" -test.paniconexit0 -test.timeout 30m "$@"); then
    echo "ok      corruption/cmd/corruption ($what) $((SECONDS - start))s"
  else
    echo "FAIL    corruption/cmd/corruption ($what) $((SECONDS - start))s"
    return 1
  fi
}

# background NAME COMMAND...: starts COMMAND in the background, its output kept until finish
# NAME prints it (the long packages run beside the others, and their output would interleave).
declare -A background_pids=()
background() {
  local name=$1
  shift
  mkdir -p "$work/out"
  "$@" > "$work/out/$name" 2>&1 &
  background_pids[$name]=$!
}

# finish NAME: waits for the command background NAME started, prints its output, and fails
# as it failed.
finish() {
  local status=0
  wait "${background_pids[$1]}" || status=$?
  cat "$work/out/$1"
  return "$status"
}

race() {
  # The packages with goroutines of their own: nodes, the network layer, the page server and
  # the command's sessions. -short leaves out the real processes and the browsers, which the
  # plain pass above has run.
  [ -x "$CORRUPTION_BIN" ] || go build -o "$CORRUPTION_BIN" ./cmd/corruption
  # It leaves out protocol's tests that replay logs in one goroutine, with no node, network or
  # clock (the golden and bad logs, the lockstep tables), and the privacy tests of Corruption
  # and Kingdoms, whose games are the table tests' and whose own work is one goroutine's
  # analysis of the recorded messages (Corruptia's and the bridge's privacy tests stay, for the
  # recording network): the plain pass ran them, and the race detector has nothing to find in
  # them; so are the boards' games played through their words and views in one goroutine
  # (ui/corruptia's and ui/kingdoms' longest tests: their page and terminal tests stay). Under
  # the race detector the table tests play their smallest table and the cheat test
  # each kind of cheat once (protocol's raceDetector). The curve arithmetic is built without
  # the race detector's instrumentation, all else with it (scripts/raceflags.sh).
  #
  # As in the test step, the two long packages start at once, each in a go test of its own,
  # beside the others: in one go test, protocol ran alone in one slot while the other linked
  # and ran the small packages one after another, and the command's package, linked last,
  # ended alone some 20 s after protocol (56 s in all, against 45 s so). The small packages
  # run one at a time, so that three test binaries run at most (one go test ran two): a race
  # pass starved of CPU fails protocol's tables that run on real clocks. The packages they
  # share are built first, once: with a cold build cache, three go commands at once would each
  # build libp2p for the race detector.
  local status=0
  local flags=("${RACE_FLAGS[@]}" -short -count=1 -timeout 20m -skip "^($RACE_SKIP)\$")
  go build "${RACE_FLAGS[@]}" ./protocol/... ./p2p/... ./ui/... ./cmd/...
  background race-protocol go test "${flags[@]}" ./protocol/
  background race-cmd go test "${flags[@]}" ./cmd/...
  go test "${flags[@]}" -p 1 $(go list ./protocol/... ./p2p/... ./ui/... | grep -v '^corruption/protocol$') || status=1
  finish race-protocol || status=1
  finish race-cmd || status=1
  return "$status"
}
# protocol's tests that wait on real time more than they work: a partition healed after 8 s of
# real time, a player away 3 to 9 s of the pumped clock, an entry written late (alone, 13 to 27 s
# each for 2 to 6 CPU-s).
PROTO_WAIT='TestDepartComesBack|TestDepartPartition|TestDepartLateEntry'
RACE_SKIP='TestPrivacy|TestKingdomsPrivacy|TestBadLogs|TestBadLogsComplete|TestCorruptiaBadLogs|TestCorruptiaBadLogsComplete|TestGoldenLogs|TestGoldenAudit|TestCorruptiaGolden|TestArchivedLogs|TestConvictionMatrix|TestConvictedGolden|TestConvictionPlaysOn|TestConvictionHalts|TestRestartRewritesEntries|TestTableLockstep|TestToyWorld|TestToyCheats|TestSeatOrder|TestSeatOrderCheats|TestStandInNotSteered|TestEscrowBadShareFoundLate|TestPlainWords|TestGameThroughBoard|TestDrawShowsOnlyTheView|TestTellEveryEvent|TestEveryLegalMoveTyped|TestDecisionWords'


wasm() {
  # protocol/browserstore's tests run only there (IndexedDB's fake, testdata/fakeidb.js); the
  # seat's runner is compiled as in the browser and takes the laptop's seat (docs/UI.md, "The
  # browser seat on a phone": its tests).
  PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go test -count=1 \
    ./protocol/browserstore/ ./seat/ -run 'TestBackend|TestTakeOver|TestOpenSeat|TestAppendLater|TestAppendBurst|TestSeatTakesTheLaptopsSeat'
  # crypto's whole suite on the group arithmetic the browser runs (crypto/internal/ristretto32,
  # issue 41): in Node, and natively with the tag that selects it.
  PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go test -count=1 -short ./crypto/...
  go test -count=1 -short -tags group32 ./crypto/...
}

# fuzz_one DIR BINARY CACHE TARGET: one fuzz target for FUZZTIME, on one worker, run by its
# package's test binary in the package's directory (a finding is saved under
# DIR/testdata/fuzz/TARGET) with the go command's corpus cache (CACHE); its output is printed if
# it fails.
fuzz_one() {
  local out
  if out="$(cd "$1" && "$2" -test.run='^$' -test.fuzz="^$4\$" -test.fuzztime="$FUZZTIME" \
    -test.parallel=1 -test.fuzzcachedir="$3" 2>&1)"; then
    echo "-- $1 $4: ok"
  else
    printf -- '-- %s %s: FAILED\n%s\n' "$1" "$4" "$out"
    return 1
  fi
}
export -f fuzz_one
export FUZZTIME

fuzz() {
  # Every func FuzzXxx in a *_test.go file, in its own package: each package's test binary is
  # built once with the fuzzing instrumentation (the go command took a second a target to
  # start one), then the targets run two at a time (the coordinator's start and its pass over
  # the corpus leave a core idle).
  local cache dirs
  cache="$(go env GOCACHE)/fuzz"
  dirs="$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n 1 dirname | sort -u)"
  mkdir -p "$work/fuzz"
  for d in $dirs; do
    go test -c -fuzz=. -o "$work/fuzz/$(echo "${d#./}" | tr / _).test" "$d"
  done
  for d in $dirs; do
    local bin path
    bin="$work/fuzz/$(echo "${d#./}" | tr / _).test"
    path="$(go list -f '{{.ImportPath}}' "$d")"
    grep -ho '^func Fuzz[A-Za-z0-9_]*' "$d"/*_test.go | sed "s|^func |$d $bin $cache/$path |"
  done | xargs -P 2 -L 1 bash -c 'fuzz_one "$@"' _
}

step tidy 5 go mod tidy -diff
step vet 10 go vet ./...
step cross 8 cross
step staticcheck 10 go run "$STATICCHECK" ./...
step test 455 tests
step race 85 race
step wasm 12 wasm
step fuzz 25 fuzz
