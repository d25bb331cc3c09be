package protocol

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// DirBackend is a data directory on disk, the Backend of every native node. Its promises are
// the Backend's: WriteFile writes a temporary file, syncs it, renames it over the old one and
// syncs the directory; files are mode 0600, folders 0700; Lock is an flock on DIR/lock (on
// Windows, the file opened for this process alone), which holds the holder's pid, released by
// Unlock or when the process exits. On a platform without a file lock (js under Node, in tests)
// Lock only records the pid: the browser seat uses its own backend.
type DirBackend struct {
	dir  string
	lock *os.File
}

// NewDirBackend opens (creating if needed) the data directory dir.
func NewDirBackend(dir string) (*DirBackend, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create data directory: %w", err)
	}
	return &DirBackend{dir: dir}, nil
}

// Dir is the directory.
func (d *DirBackend) Dir() string { return d.dir }

func (d *DirBackend) path(name string) (string, error) {
	if err := CheckFileName(name); err != nil {
		return "", err
	}
	return filepath.Join(d.dir, filepath.FromSlash(name)), nil
}

// Path is the file's path on disk.
func (d *DirBackend) Path(name string) string {
	return filepath.Join(d.dir, filepath.FromSlash(name))
}

func (d *DirBackend) ReadFile(name string) ([]byte, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

func (d *DirBackend) WriteFile(name string, data []byte) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return writeFileSync(p, data, 0o600)
}

func (d *DirBackend) OpenAppend(name string) (Appender, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	return osAppender{f}, nil
}

func (d *DirBackend) Rename(from, to string) error {
	pf, err := d.path(from)
	if err != nil {
		return err
	}
	pt, err := d.path(to)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(pt), 0o700); err != nil {
		return err
	}
	return os.Rename(pf, pt)
}

func (d *DirBackend) Remove(name string) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	return os.Remove(p)
}

func (d *DirBackend) List(dir string) ([]string, error) {
	p := d.dir
	if dir != "" {
		var err error
		if p, err = d.path(dir); err != nil {
			return nil, err
		}
	}
	ents, err := os.ReadDir(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out, nil
}

func (d *DirBackend) Lock() error {
	if d.lock != nil {
		return nil
	}
	path := filepath.Join(d.dir, "lock")
	f, busy, err := lockFile(path) // lock_unix.go, lock_windows.go, lock_other.go
	if err != nil {
		holder := ""
		if b, rerr := os.ReadFile(path); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
				holder = fmt.Sprintf(" (process %d)", pid)
			}
		}
		if busy {
			return fmt.Errorf("%s: %w%s: stop it, or give this node another --data", d.dir, ErrLocked, holder)
		}
		return fmt.Errorf("cannot lock the data directory %s: %w", d.dir, err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	d.lock = f
	return nil
}

func (d *DirBackend) Unlock() {
	if d.lock != nil {
		d.lock.Close() // releases the flock
		d.lock = nil
	}
}

type osAppender struct{ f *os.File }

func (a osAppender) Size() (int64, error) {
	st, err := a.f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

func (a osAppender) Append(b []byte, sync bool) error {
	if _, err := a.f.Write(b); err != nil {
		return err
	}
	if sync {
		return a.f.Sync()
	}
	return nil
}

func (a osAppender) Close() error { return a.f.Close() }

// writeFileSync writes a file whole and durably: a temporary file, fsync, rename, fsync of the
// directory.
func writeFileSync(path string, data []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err = f.Chmod(mode); err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
