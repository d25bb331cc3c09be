//go:build !unix && !windows

package protocol

import "os"

// lockFile opens path; this platform (js under Node, wasip1) has no file lock, so it only
// records the holder. The browser seat keeps its files in the browser, with a lock of its own.
func lockFile(path string) (f *os.File, busy bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	return f, false, err
}
