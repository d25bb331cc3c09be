#!/usr/bin/env bash
# The project's test command (see README.md). Checks that go.mod is tidy, runs vet, builds the
# release targets of the other platforms, runs staticcheck, the whole test suite, the concurrent
# packages again under the race detector, and a short run of every fuzz target. FUZZTIME sets
# each target's budget: a count of executions by default (a wall-clock -fuzztime races Go 1.26's fuzz coordinator at its
# deadline, golang/go#75804, and fails without a finding on a loaded machine). Fuzz longer
# with, e.g.,
#   FUZZTIME=2000000x ./scripts/test.sh     or     FUZZTIME=10m ./scripts/test.sh
# and only the fuzz targets with FUZZ_ONLY=1. NO_RACE=1 skips the race pass.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-5000x}"
STATICCHECK="honnef.co/go/tools/cmd/staticcheck@v0.8.2"

if [ -z "${FUZZ_ONLY:-}" ]; then
  echo "== go mod tidy -diff"
  go mod tidy -diff

  echo "== go vet"
  go vet ./...

  echo "== cross builds (the release targets of scripts/release.sh other than this one)"
  for target in linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
    echo "-- $target"
    CGO_ENABLED=0 GOOS="${target%/*}" GOARCH="${target#*/}" go build -trimpath -o /dev/null ./cmd/corruption
  done

  echo "== staticcheck"
  go run "$STATICCHECK" ./...

  echo "== go test"
  go test -count=1 -timeout 20m ./...

  if [ -z "${NO_RACE:-}" ]; then
    # The packages with goroutines of their own: nodes, the network layer, the page server
    # and the command's sessions. -short leaves out the slowest network games, which the
    # plain pass above has run.
    echo "== go test -race (concurrent packages)"
    go test -race -short -count=1 -timeout 20m ./protocol/... ./p2p/... ./ui/... ./cmd/...
  fi
fi

echo "== fuzz (each target for $FUZZTIME)"
# Every func FuzzXxx in a *_test.go file, run one at a time in its own package.
grep -rl --include='*_test.go' '^func Fuzz' . | while read -r f; do
  pkg="./$(dirname "${f#./}")"
  grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //' | while read -r t; do
    echo "-- $pkg $t"
    go test -run='^$' -fuzz="^${t}\$" -fuzztime="$FUZZTIME" "$pkg"
  done
done
echo "== all tests passed"
