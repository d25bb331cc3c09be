package protocol

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"corruption/protocol/internal/wire"
)

// Store is a node's data, kept by a Backend: a data directory on disk (OpenStore) or the
// browser's storage (NewStore with the browser's backend). Its files:
//
//	lock              held by the one process using the directory (DirBackend: flock; holds its pid)
//	identity          the node's ed25519 identity (its 32-byte seed), mode 0600
//	played            the ids of every table this node has sat at, one a line (hex)
//	tables/NAME/seed  the node's secret seed for its log of table NAME, mode 0600
//	tables/NAME/log   the table's log file, appended as entries come
//
// Everything the node needs to resume after a crash is there: the log, and the seed from
// which it rebuilds its secrets. A new log always gets a new seed, and a table id this node
// already sat at is never sat at again: a node that kept its directory but lost a log must not
// derive the old game's secrets again (its old reveals published some of them).
//
// Only one process may use a data directory at a time: OpenStore takes an exclusive lock and
// fails at once, naming the holder, when another process has it.
type Store struct {
	b   Backend
	log Appender
	// Rand is where new secrets come from (nil: crypto/rand). Tests set it to be repeatable.
	Rand io.Reader
}

// ErrLocked: another process uses the data directory.
var ErrLocked = errors.New("the data directory is in use by another corruption process")

// OpenStore opens (creating if needed) a data directory and locks it for this process.
func OpenStore(dir string) (*Store, error) {
	b, err := NewDirBackend(dir)
	if err != nil {
		return nil, err
	}
	return NewStore(b)
}

// NewStore opens a Store on a backend and takes the backend's lock.
func NewStore(b Backend) (*Store, error) {
	s := &Store{b: b}
	if err := s.b.Lock(); err != nil {
		return nil, err
	}
	return s, nil
}

// Backend is the store's backend.
func (s *Store) Backend() Backend { return s.b }

func (s *Store) rand() io.Reader {
	if s.Rand != nil {
		return s.Rand
	}
	return rand.Reader
}

// Identity loads the node's identity key, creating it on first use.
func (s *Store) Identity() (ed25519.PrivateKey, error) {
	seed, err := s.secret("identity")
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
	path := dir + "/seed"
	b, err := s.b.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return [32]byte{}, fmt.Errorf("%s: the saved log of table %q has no secret seed beside it: it cannot be resumed", s.b.Path(path), name)
	}
	return readSecret(s.b.Path(path), b, err)
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
	return v, s.b.WriteFile(dir+"/seed", v[:])
}

// Played reports whether this node has sat at the table with this id before.
func (s *Store) Played(id [32]byte) (bool, error) {
	b, err := s.b.ReadFile("played")
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	want := hex.EncodeToString(id[:])
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if sc.Text() == want {
			return true, nil
		}
	}
	return false, sc.Err()
}

// MarkPlayed records, durably, that this node sits at the table with this id.
func (s *Store) MarkPlayed(id [32]byte) error {
	f, err := s.b.OpenAppend("played")
	if err != nil {
		return err
	}
	if err := f.Append([]byte(hex.EncodeToString(id[:])+"\n"), true); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// tableDir is the folder of a table's files, "tables/NAME".
func (s *Store) tableDir(name string) (string, error) {
	if name == "" || name == "." || name == ".." || filepath.Base(name) != name || strings.ContainsAny(name, "/\\\x00") {
		return "", fmt.Errorf("table name %q cannot name a directory", name)
	}
	return "tables/" + name, nil
}

// secret reads a 32-byte secret file, or creates it with fresh randomness, synced to disk.
func (s *Store) secret(name string) ([32]byte, error) {
	b, err := s.b.ReadFile(name)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return readSecret(s.b.Path(name), b, err)
	}
	var v [32]byte
	if _, err := io.ReadFull(s.rand(), v[:]); err != nil {
		return v, err
	}
	return v, s.b.WriteFile(name, v[:])
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

// LoadLog reads the saved log of a table (nil if there is none). A record cut short by a crash
// is dropped: it was never published, since the node syncs before it publishes.
func (s *Store) LoadLog(name string) ([]*Entry, error) {
	dir, err := s.tableDir(name)
	if err != nil {
		return nil, err
	}
	path := dir + "/log"
	b, err := s.b.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	entries, err := ReadLog(bytes.NewReader(b))
	var le *LogError
	if errors.As(err, &le) && errors.Is(err, ErrTruncated) {
		// Rewrite the file without the partial record.
		if werr := s.rewrite(path, entries); werr != nil {
			return nil, werr
		}
		return entries, nil
	}
	if err != nil {
		return entries, fmt.Errorf("%s: %w", s.b.Path(path), err)
	}
	return entries, nil
}

// Notes reads the notes at the end of a table's saved log (nil if there is none).
func (s *Store) Notes(name string) ([]*Note, error) {
	dir, err := s.tableDir(name)
	if err != nil {
		return nil, err
	}
	b, err := s.b.ReadFile(dir + "/log")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	_, notes, err := ReadLogNotes(bytes.NewReader(b))
	var le *LogError
	if errors.As(err, &le) && errors.Is(err, ErrTruncated) {
		err = nil
	}
	return notes, err
}

// ReadTableFile reads one of a table's files by its name in the table's folder ("log",
// "chat", or an archive ArchiveLog named); an error wrapping fs.ErrNotExist when it is not
// there.
func (s *Store) ReadTableFile(table, file string) ([]byte, error) {
	dir, err := s.tableDir(table)
	if err != nil {
		return nil, err
	}
	return s.b.ReadFile(dir + "/" + file)
}

func (s *Store) rewrite(path string, entries []*Entry) error {
	b := []byte(LogMagic)
	for _, e := range entries {
		b = AppendRecord(b, e)
	}
	return s.b.WriteFile(path, b)
}

// OpenLog opens a table's log for appending (creating it with its magic line), taking the
// directory's lock again if Close released it.
func (s *Store) OpenLog(name string) error {
	if err := s.b.Lock(); err != nil {
		return err
	}
	dir, err := s.tableDir(name)
	if err != nil {
		return err
	}
	f, err := s.b.OpenAppend(dir + "/log")
	if err != nil {
		return err
	}
	if n, err := f.Size(); err == nil && n == 0 {
		if err := f.Append([]byte(LogMagic), false); err != nil {
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
	if err := s.log.Append(AppendRecord(nil, e), sync); err != nil {
		return fmt.Errorf("cannot write the log: %w", err)
	}
	return nil
}

// AppendNote appends a note to the open log, synced.
func (s *Store) AppendNote(n *Note) error {
	if s.log == nil {
		return errors.New("no log is open")
	}
	if err := s.log.Append(wire.AppendRecord(nil, n.Marshal()), true); err != nil {
		return fmt.Errorf("cannot write the log: %w", err)
	}
	return nil
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
	to := dir + "/" + fmt.Sprintf("%x.%s.log", id[:8], why)
	if err := s.b.Rename(dir+"/log", to); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("cannot archive the log of table %q: %w", name, err)
	}
	if wasOpen {
		if err := s.OpenLog(name); err != nil {
			return "", err
		}
	}
	return s.b.Path(to), nil
}

// LogPath names a table's log file (on disk: its path).
func (s *Store) LogPath(name string) string { return s.b.Path("tables/" + name + "/log") }

// Close closes the log and releases the backend's lock.
func (s *Store) Close() error {
	var err error
	if s.log != nil {
		err = s.log.Close()
		s.log = nil
	}
	s.b.Unlock()
	return err
}

// WipeSecrets removes what a table's log cannot be read without, once the table is over: the
// node's seed for it (from which every secret of its seat derives), its departure agreement,
// and the private table it created or joined under that name (its channel's key). The log,
// the chat and the archives stay; so does the node's identity. The browser seat calls it when
// its table ends, so that whoever picks up the phone afterwards reads only what the table
// revealed. It takes the backend's lock again if Close released it (as the node does when
// its run ends).
func (s *Store) WipeSecrets(name string) error {
	dir, err := s.tableDir(name)
	if err != nil {
		return err
	}
	if err := s.b.Lock(); err != nil {
		return err
	}
	for _, f := range []string{dir + "/seed", dir + "/departure"} {
		if err := s.b.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot wipe %s: %w", s.b.Path(f), err)
		}
	}
	privs, err := s.b.List("private")
	if err != nil {
		return err
	}
	for _, f := range privs {
		b, err := s.b.ReadFile("private/" + f)
		if err != nil {
			continue
		}
		if p, err := parsePrivateTable(b); err == nil && p.Name() != name {
			continue // another table's
		}
		if err := s.b.Remove("private/" + f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot wipe %s: %w", s.b.Path("private/"+f), err)
		}
	}
	return nil
}
