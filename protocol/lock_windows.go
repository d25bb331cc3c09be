//go:build windows

package protocol

import (
	"errors"
	"os"
	"syscall"
)

// lockFile opens path for this process alone (no sharing), which Windows keeps until the file
// is closed or the process exits. busy says that another process has it open.
func lockFile(path string) (f *os.File, busy bool, err error) {
	name, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return nil, false, err
	}
	h, err := syscall.CreateFile(name, syscall.GENERIC_READ|syscall.GENERIC_WRITE, 0, nil,
		syscall.OPEN_ALWAYS, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		const errorSharingViolation = syscall.Errno(32)
		return nil, errors.Is(err, errorSharingViolation), err
	}
	return os.NewFile(uintptr(h), path), false, nil
}
