//go:build race

package protocol

// raceDetector: the tests are built with the race detector (-race), which makes each game
// several times slower; tables that show the same concurrency at a smaller size run only at it
// (scripts/test.sh's race pass; the plain pass runs every size).
const raceDetector = true
