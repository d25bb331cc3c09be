//go:build unix

package protocol

import (
	"errors"
	"os"
	"syscall"
)

// lockFile opens path and takes an exclusive lock on it (flock), released when the file is
// closed or the process exits. busy says that another process holds it.
func lockFile(path string) (f *os.File, busy bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, errors.Is(err, syscall.EWOULDBLOCK), err
	}
	return f, false, nil
}
