//go:build !race

package protocol

// raceDetector: the tests are built without the race detector (race_on_internal_test.go).
const raceDetector = false
