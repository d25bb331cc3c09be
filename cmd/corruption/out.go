package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"corruption/protocol"
)

// checkOut makes sure the --out file can be written, before the game rather than after it,
// and leaves nothing behind: no empty file, no temporary one.
func checkOut(path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", path)
		}
	}
	// The log is written to a temporary file beside path, then renamed over it: try that.
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		if st, serr := os.Stat(dir); serr == nil && st.IsDir() && errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot create a file in %s", dir) // /proc, say
		}
		return fmt.Errorf("cannot write in %s: %v", dir, unwrapPath(err))
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	if err := os.Rename(name, name+"~"); err != nil {
		return fmt.Errorf("cannot write in %s: %v", filepath.Dir(path), unwrapPath(err))
	}
	os.Remove(name + "~")
	return nil
}

// unwrapPath drops the path and operation from a *PathError or *LinkError, which the caller
// already names.
func unwrapPath(err error) error {
	var pe *os.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// saveLog copies the table's log file (entries and any closing note) to path, as saveCopy does.
func saveLog(path string, store *protocol.Store, table string) error {
	src, err := os.Open(store.LogPath(table))
	if err != nil {
		return err
	}
	defer src.Close()
	return saveCopy(path, src)
}

// saveCopy copies src to path: a temporary file beside it, synced, then renamed over it, so that
// path is never left half written, and the temporary file is removed on any failure.
func saveCopy(path string, src io.Reader) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if _, err = io.Copy(f, src); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
