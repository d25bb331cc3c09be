#!/usr/bin/env bash
# Builds release binaries of the corruption command for friends without Go: Linux, macOS and
# Windows, amd64 and arm64, each a single static file (CGO_ENABLED=0) that knows its version
# (corruption --version), with a SHA-256 list beside them. The list names the browser seat too
# (seat-VERSION.wasm, the WebAssembly every binary serves to phones, as a phone receives it):
# a careful player compares the digest of the .wasm a laptop serves with it
# (docs/SECURITY.md, "A seat in the browser").
#
#   ./scripts/release.sh                 # version from git describe, into dist/
#   VERSION=v2.1.0 ./scripts/release.sh  # a named release
#   TARGETS="linux/amd64" ./scripts/release.sh   # some targets only (what CI builds to see a break)
#
# About a minute a target on a 2-core machine (libp2p is large); the binaries are about 30 MB.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}"
TARGETS="${TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}"
OUT="${OUT:-dist}"

mkdir -p "$OUT"
built=()
for target in $TARGETS; do
  goos="${target%/*}"
  goarch="${target#*/}"
  name="corruption-$VERSION-$goos-$goarch"
  [ "$goos" = windows ] && name="$name.exe"
  echo "building $OUT/$name" >&2
  CGO_ENABLED=0 GOOS="$goos" GOARCH="$goarch" go build -trimpath \
    -ldflags "-s -w -X main.version=$VERSION" -o "$OUT/$name" ./cmd/corruption
  built+=("$name")
done
seat="seat-$VERSION.wasm"
gunzip -c seat/web/seat.wasm.gz > "$OUT/$seat"
if [ "$(sha256sum < "$OUT/$seat" | cut -d' ' -f1)" != "$(cut -d' ' -f1 seat/web/seat.wasm.sha256)" ]; then
  echo "seat/web/seat.wasm.gz does not match seat/web/seat.wasm.sha256: go generate ./seat/web" >&2
  exit 1
fi
built+=("$seat")
(cd "$OUT" && sha256sum "${built[@]}" > "SHA256SUMS-$VERSION")
echo "built ${#built[@]} files of $VERSION in $OUT/ (SHA256SUMS-$VERSION lists them)" >&2
