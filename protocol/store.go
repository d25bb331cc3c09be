package protocol

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Store is a node's data directory:
//
//	DIR/identity          the node's ed25519 identity (its 32-byte seed), mode 0600
//	DIR/tables/NAME/seed  the node's secret seed for table NAME, mode 0600
//	DIR/tables/NAME/log   the table's log file, appended as entries come
//
// Everything the node needs to resume after a crash is there: the log, and the seed from
// which it rebuilds its secrets.
type Store struct {
	dir string
	log *os.File
}

// OpenStore opens (creating if needed) a data directory.
func OpenStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create data directory: %w", err)
	}
	return &Store{dir: dir}, nil
}

// Identity loads the node's identity key, creating it on first use.
func (s *Store) Identity() (ed25519.PrivateKey, error) {
	seed, err := s.secret(filepath.Join(s.dir, "identity"))
	if err != nil {
		return nil, err
	}
	return ed25519.NewKeyFromSeed(seed[:]), nil
}

// TableSeed loads the node's secret seed for a table, creating it on first use.
func (s *Store) TableSeed(name string) ([32]byte, error) {
	dir, err := s.tableDir(name)
	if err != nil {
		return [32]byte{}, err
	}
	return s.secret(filepath.Join(dir, "seed"))
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
	var v [32]byte
	b, err := os.ReadFile(path)
	if err == nil {
		if len(b) != len(v) {
			return v, fmt.Errorf("%s: %d bytes, want %d (the file is damaged)", path, len(b), len(v))
		}
		copy(v[:], b)
		return v, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return v, err
	}
	if _, err := rand.Read(v[:]); err != nil {
		return v, err
	}
	return v, writeFileSync(path, v[:], 0o600)
}

// writeFileSync writes a file whole and durably: a temporary file, fsync, rename, fsync of the
// directory.
func writeFileSync(path string, data []byte, mode os.FileMode) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
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

func (s *Store) rewrite(path string, entries []*Entry) error {
	b := []byte(LogMagic)
	for _, e := range entries {
		b = AppendRecord(b, e)
	}
	return writeFileSync(path, b, 0o600)
}

// OpenLog opens a table's log for appending (creating it with its magic line).
func (s *Store) OpenLog(name string) error {
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
	if _, err := s.log.Write(appendRecordBytes(nil, n.Marshal())); err != nil {
		return fmt.Errorf("cannot write the log: %w", err)
	}
	return s.log.Sync()
}

// LogPath is the path of a table's log file.
func (s *Store) LogPath(name string) string { return filepath.Join(s.dir, "tables", name, "log") }

// Close closes the log.
func (s *Store) Close() error {
	if s.log == nil {
		return nil
	}
	err := s.log.Close()
	s.log = nil
	return err
}
