# Sourced by scripts/test.sh and scripts/stress-clock.sh: how the race pass builds its tests.
#
# The curve arithmetic, filippo.io/edwards25519 and the standard library's own copy
# (crypto/internal/fips140/edwards25519, under Ed25519's signatures), is compiled without the
# race detector's instrumentation: field elements and points worked on by pure functions, with
# no goroutine, lock or shared state of their own. Instrumented, their loads and stores were
# four fifths of the race pass's CPU (a cheat test and a Corruptia table: 37 CPU-s, 9 without);
# the race detector then checked every multiplication of every shuffle proof. Every package of
# ours, libp2p's, and the rest of the standard library's (the hashes, the signatures' code, sync,
# net) stays instrumented: a race on a value shared between goroutines is still found where our
# code reads or writes it. docs/PERFORMANCE.md, "The test command".
RACE_FLAGS=(-race
  -gcflags='filippo.io/edwards25519/...=-race=false'
  -gcflags='crypto/internal/fips140/edwards25519/...=-race=false')
