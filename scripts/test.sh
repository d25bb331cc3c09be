#!/usr/bin/env bash
# The project's test command (see README.md). Runs vet, the whole test suite, and a short run of
# every fuzz target. Set FUZZTIME (default 3s) to fuzz longer, e.g. FUZZTIME=10m ./scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-3s}"

echo "== go vet"
go vet ./...

echo "== go test"
go test -count=1 -timeout 20m ./...

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
