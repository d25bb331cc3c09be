package protocol

import (
	"errors"
	"io/fs"
	"strings"
)

// Backend is where a Store keeps its files: a data directory on disk (DirBackend) or the
// browser's storage (package protocol/browserstore). A Store knows its files by names relative
// to the backend's root, with slashes ("tables/NAME/log"), and asks of its backend only this:
//
//   - ReadFile returns a file's bytes, or an error wrapping fs.ErrNotExist when there is none.
//   - WriteFile replaces a file whole, durably and atomically: once it returns the new bytes
//     survive a crash, and a crash before leaves the old ones, never a mix. It makes the folders
//     the name needs.
//   - OpenAppend opens a file for appending (made empty, with its folders, when missing). An
//     append with sync is durable when it returns; one without is durable with the next synced
//     one. A record cut short by a crash may remain at the end (the Store drops it).
//   - Rename moves a file, replacing to; an error wrapping fs.ErrNotExist when from is missing.
//   - Remove removes a file; an error wrapping fs.ErrNotExist when there is none.
//   - List names the entries directly in a folder ("" is the root), sorted; none for a folder
//     that does not exist.
//   - Lock takes the backend for this Store alone: while it is held, no other process (or
//     browser tab) writes there. It fails at once with an error wrapping ErrLocked, naming the
//     holder when it can, when another has it. Taking it again while held is a no-op; Unlock
//     releases it.
//   - Path names a file for people, in messages (a path on disk, or a place in the browser).
type Backend interface {
	ReadFile(name string) ([]byte, error)
	WriteFile(name string, data []byte) error
	OpenAppend(name string) (Appender, error)
	Rename(from, to string) error
	Remove(name string) error
	List(dir string) ([]string, error)
	Lock() error
	Unlock()
	Path(name string) string
}

// Appender is a file open for appending.
type Appender interface {
	// Size is the file's length in bytes.
	Size() (int64, error)
	// Append writes b at the end; with sync it is durable when Append returns.
	Append(b []byte, sync bool) error
	Close() error
}

// CheckFileName reports whether name is a file name a Backend accepts: slash-separated parts, none
// empty, "." or "..", no backslash or NUL. Backends call it on every name they are given.
func CheckFileName(name string) error {
	if name == "" {
		return errors.New("an empty file name")
	}
	if strings.ContainsAny(name, "\\\x00") {
		return &fs.PathError{Op: "name", Path: name, Err: fs.ErrInvalid}
	}
	for _, p := range strings.Split(name, "/") {
		if p == "" || p == "." || p == ".." {
			return &fs.PathError{Op: "name", Path: name, Err: fs.ErrInvalid}
		}
	}
	return nil
}
