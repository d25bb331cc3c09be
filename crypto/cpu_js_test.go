//go:build js

package crypto_test

import (
	"syscall/js"
	"time"
)

// processCPU is the CPU time the Node process has used (process.cpuUsage: user and system,
// in microseconds), which a benchmark reports per operation beside the wall time.
func processCPU() time.Duration {
	u := js.Global().Get("process").Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
