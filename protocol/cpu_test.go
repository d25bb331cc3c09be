//go:build !js

package protocol_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used (user and system), which a benchmark
// reports beside the wall time: on a machine shared with other work, the wall time measures
// the load as much as the code.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
