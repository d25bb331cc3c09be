package protocol

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"corruption/protocol/internal/wire"
)

// Store is a node's data directory:
//
//	DIR/lock              held (flock) by the one process using the directory; holds its pid
//	DIR/identity          the node's ed25519 identity (its 32-byte seed), mode 0600
//	DIR/played            the ids of every table this node has sat at, one a line (hex)
//	DIR/tables/NAME/seed  the node's secret seed for its log of table NAME, mode 0600
//	DIR/tables/NAME/log   the table's log file, appended as entries come
//
// Everything the node needs to resume after a crash is there: the log, and the seed from
// which it rebuilds its secrets. A new log always gets a new seed, and a table id this node
// already sat at is never sat at again: a node that kept its directory but lost a log must not
// derive the old game's secrets again (its old reveals published some of them).
//
// Only one process may use a data directory at a time: OpenStore takes an exclusive lock and
// fails at once, naming the holder, when another process has it.
type Store struct {
	dir  string
	log  *os.File
	lock *os.File
	// Rand is where new secrets come from (nil: crypto/rand). Tests set it to be repeatable.
	Rand io.Reader
}

// ErrLocked: another process uses the data directory.
var ErrLocked = errors.New("the data directory is in use by another corruption process")

// OpenStore opens (creating if needed) a data directory and locks it for this process.
func OpenStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create data directory: %w", err)
	}
	s := &Store{dir: dir}
	if err := s.takeLock(); err != nil {
		return nil, err
	}
	return s, nil
}

// takeLock takes the directory's lock (an flock on DIR/lock, released by Close or at exit).
func (s *Store) takeLock() error {
	if s.lock != nil {
		return nil
	}
	path := filepath.Join(s.dir, "lock")
	f, busy, err := lockFile(path) // lock_unix.go, lock_windows.go
	if err != nil {
		holder := ""
		if b, rerr := os.ReadFile(path); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
				holder = fmt.Sprintf(" (process %d)", pid)
			}
		}
		if busy {
			return fmt.Errorf("%s: %w%s: stop it, or give this node another --data", s.dir, ErrLocked, holder)
		}
		return fmt.Errorf("cannot lock the data directory %s: %w", s.dir, err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	s.lock = f
	return nil
}

func (s *Store) rand() io.Reader {
	if s.Rand != nil {
		return s.Rand
	}
	return rand.Reader
}

// Identity loads the node's identity key, creating it on first use.
func (s *Store) Identity() (ed25519.PrivateKey, error) {
	seed, err := s.secret(filepath.Join(s.dir, "identity"))
	if err != nil {
		return nil, err
	}
	return ed25519.NewKeyFromSeed(seed[:]), nil
}

// TableSeed loads the node's secret seed for its saved log of a table. It fails when there is
// none: a seed is only ever made with a new log (NewTableSeed).
func (s *Store) TableSeed(name string) ([32]byte, error) {
	dir, err := s.tableDir(name)
	if err != nil {
		return [32]byte{}, err
	}
	path := filepath.Join(dir, "seed")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return [32]byte{}, fmt.Errorf("%s: the saved log of table %q has no secret seed beside it: it cannot be resumed", path, name)
	}
	return readSecret(path, b, err)
}

// NewTableSeed makes a fresh secret seed for a new log of a table, replacing any old one.
func (s *Store) NewTableSeed(name string) ([32]byte, error) {
	var v [32]byte
	dir, err := s.tableDir(name)
	if err != nil {
		return v, err
	}
	if _, err := io.ReadFull(s.rand(), v[:]); err != nil {
		return v, fmt.Errorf("cannot draw a table seed: %w", err)
	}
	return v, writeFileSync(filepath.Join(dir, "seed"), v[:], 0o600)
}

// Played reports whether this node has sat at the table with this id before.
func (s *Store) Played(id [32]byte) (bool, error) {
	f, err := os.Open(filepath.Join(s.dir, "played"))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	want := hex.EncodeToString(id[:])
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sc.Text() == want {
			return true, nil
		}
	}
	return false, sc.Err()
}

// MarkPlayed records, durably, that this node sits at the table with this id.
func (s *Store) MarkPlayed(id [32]byte) error {
	f, err := os.OpenFile(filepath.Join(s.dir, "played"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(hex.EncodeToString(id[:]) + "\n"); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (s *Store) tableDir(name string) (string, error) {
	if name == "" || name == "." || name == ".." || filepath.Base(name) != name {
		return "", fmt.Errorf("table name %q cannot name a directory", name)
	}
	dir := filepath.Join(s.dir, "tables", name)
	return dir, os.MkdirAll(dir, 0o700)
}

// secret reads a 32-byte secret file, or creates it with fresh randomness, synced to disk.
func (s *Store) secret(path string) ([32]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return readSecret(path, b, err)
	}
	var v [32]byte
	if _, err := io.ReadFull(s.rand(), v[:]); err != nil {
		return v, err
	}
	return v, writeFileSync(path, v[:], 0o600)
}

func readSecret(path string, b []byte, err error) ([32]byte, error) {
	var v [32]byte
	if err != nil {
		return v, err
	}
	if len(b) != len(v) {
		return v, fmt.Errorf("%s: %d bytes, want %d (the file is damaged)", path, len(b), len(v))
	}
	copy(v[:], b)
	return v, nil
}

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

// LoadLog reads the saved log of a table (nil if there is none). A record cut short by a crash
// is dropped: it was never published, since the node syncs before it publishes.
func (s *Store) LoadLog(name string) ([]*Entry, error) {
	dir, err := s.tableDir(name)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "log")
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := ReadLog(f)
	var le *LogError
	if errors.As(err, &le) && errors.Is(err, ErrTruncated) {
		// Rewrite the file without the partial record.
		if werr := s.rewrite(path, entries); werr != nil {
			return nil, werr
		}
		return entries, nil
	}
	if err != nil {
		return entries, fmt.Errorf("%s: %w", path, err)
	}
	return entries, nil
}

// Notes reads the notes at the end of a table's saved log (nil if there is none).
func (s *Store) Notes(name string) ([]*Note, error) {
	f, err := os.Open(s.LogPath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	_, notes, err := ReadLogNotes(f)
	var le *LogError
	if errors.As(err, &le) && errors.Is(err, ErrTruncated) {
		err = nil
	}
	return notes, err
}

func (s *Store) rewrite(path string, entries []*Entry) error {
	b := []byte(LogMagic)
	for _, e := range entries {
		b = AppendRecord(b, e)
	}
	return writeFileSync(path, b, 0o600)
}

// OpenLog opens a table's log for appending (creating it with its magic line), taking the
// directory's lock again if Close released it.
func (s *Store) OpenLog(name string) error {
	if err := s.takeLock(); err != nil {
		return err
	}
	dir, err := s.tableDir(name)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "log")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	if st, err := f.Stat(); err == nil && st.Size() == 0 {
		if _, err := f.Write([]byte(LogMagic)); err != nil {
			f.Close()
			return err
		}
	}
	s.log = f
	return nil
}

// Append appends an entry to the open log; with sync, it is on disk when Append returns.
func (s *Store) Append(e *Entry, sync bool) error {
	if s.log == nil {
		return errors.New("no log is open")
	}
	if _, err := s.log.Write(AppendRecord(nil, e)); err != nil {
		return fmt.Errorf("cannot write the log: %w", err)
	}
	if sync {
		if err := s.log.Sync(); err != nil {
			return fmt.Errorf("cannot sync the log: %w", err)
		}
	}
	return nil
}

// AppendNote appends a note to the open log, synced.
func (s *Store) AppendNote(n *Note) error {
	if s.log == nil {
		return errors.New("no log is open")
	}
	if _, err := s.log.Write(wire.AppendRecord(nil, n.Marshal())); err != nil {
		return fmt.Errorf("cannot write the log: %w", err)
	}
	return s.log.Sync()
}

// ArchiveLog moves a table's log aside, as tables/NAME/<id>.<why>.log (a finished table, or one
// that never started), so that the next table of that name starts a new log with a new seed;
// an open log is reopened, empty. It returns the archive's path.
func (s *Store) ArchiveLog(name string, id [32]byte, why string) (string, error) {
	dir, err := s.tableDir(name)
	if err != nil {
		return "", err
	}
	wasOpen := s.log != nil
	if wasOpen {
		s.log.Close()
		s.log = nil
	}
	to := filepath.Join(dir, fmt.Sprintf("%x.%s.log", id[:8], why))
	if err := os.Rename(filepath.Join(dir, "log"), to); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("cannot archive the log of table %q: %w", name, err)
	}
	if wasOpen {
		if err := s.OpenLog(name); err != nil {
			return "", err
		}
	}
	return to, nil
}

// LogPath is the path of a table's log file.
func (s *Store) LogPath(name string) string { return filepath.Join(s.dir, "tables", name, "log") }

// Close closes the log and releases the directory's lock.
func (s *Store) Close() error {
	var err error
	if s.log != nil {
		err = s.log.Close()
		s.log = nil
	}
	if s.lock != nil {
		s.lock.Close() // releases the flock
		s.lock = nil
	}
	return err
}
