package protocol

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"corruption/protocol/internal/wire"
)

// The log file: the magic line, then one record per entry: u32 length, the entry's canonical
// encoding, u32 CRC-32C of the encoding. Nodes save their table's log in it, `--out` writes
// it, and audit and replay read it. Entries are in log order; a node that halted a table on
// a cheat appends the offending entry, signed by the cheater, as the proof.

// LogMagic opens every log file.
const LogMagic = "corruption log v2\n"

// AppendRecord appends one entry's record to b.
func AppendRecord(b []byte, e *Entry) []byte { return wire.AppendRecord(b, e.Marshal()) }

// LogError says what is wrong with a log file, and where.
type LogError struct {
	Record int // 1-based record number (0 for the header)
	Offset int64
	Err    error
}

func (e *LogError) Error() string {
	if e.Record == 0 {
		return fmt.Sprintf("log header: %v", e.Err)
	}
	return fmt.Sprintf("log file, entry %d (at byte %d): %v", e.Record-1, e.Offset, e.Err)
}

func (e *LogError) Unwrap() error { return e.Err }

// ErrTruncated: the log ends in the middle of a record.
var ErrTruncated = errors.New("the log is truncated: its last record is incomplete")

// Bounds on what a log file may hold: no table's log comes near them, and a reader that meets
// more stops with an error instead of growing without end (a device, a sparse or a forged file).
const (
	MaxLogBytes   = 64 << 20 // the whole file
	MaxLogEntries = 1 << 16
	maxLogNotes   = 64 // at most one per seat and verdict in practice
)

// A LogReader reads a log file one record at a time, in bounded memory: the largest record
// it accepts is MaxEntrySize, and it stops with an error past MaxLogBytes or MaxLogEntries.
type LogReader struct {
	br      *bufio.Reader
	rec     int   // the record about to be read (1-based)
	off     int64 // its offset
	entries int
	notes   int
	err     error
}

// NewLogReader checks the magic line and returns a reader positioned at the first record.
func NewLogReader(r io.Reader) (*LogReader, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxLogBytes+1))
	magic := make([]byte, len(LogMagic))
	if n, err := io.ReadFull(br, magic); err != nil || string(magic) != LogMagic {
		if n == 0 && err == io.EOF {
			return nil, &LogError{Err: errors.New("the file is empty, not a corruption log")}
		}
		return nil, &LogError{Err: errors.New("not a corruption log (bad magic line)")}
	}
	return &LogReader{br: br, rec: 1, off: int64(len(LogMagic))}, nil
}

// Next returns the next record: an entry or a note (one of the two is nil). It returns io.EOF
// at a clean end, and a *LogError for a bad, truncated or oversize record or file; after an
// error it keeps returning it.
func (lr *LogReader) Next() (*Entry, *Note, error) {
	if lr.err != nil {
		return nil, nil, lr.err
	}
	e, n, err := lr.next()
	if err != nil {
		lr.err = err
	}
	return e, n, err
}

func (lr *LogReader) fail(err error) error { return &LogError{lr.rec, lr.off, err} }

func (lr *LogReader) next() (*Entry, *Note, error) {
	var hdr [4]byte
	n, err := io.ReadFull(lr.br, hdr[:])
	if err == io.EOF {
		return nil, nil, io.EOF
	}
	if err != nil {
		return nil, nil, lr.fail(ErrTruncated)
	}
	size := binary.BigEndian.Uint32(hdr[:])
	if size > MaxEntrySize {
		return nil, nil, lr.fail(fmt.Errorf("record of %d bytes is larger than an entry can be", size))
	}
	if lr.off+int64(n)+int64(size)+4 > MaxLogBytes {
		return nil, nil, lr.fail(fmt.Errorf("the log is longer than %d MiB: no table's log is that long", MaxLogBytes>>20))
	}
	buf := make([]byte, size+4)
	if _, err := io.ReadFull(lr.br, buf); err != nil {
		return nil, nil, lr.fail(ErrTruncated)
	}
	enc, sum := buf[:size], binary.BigEndian.Uint32(buf[size:])
	if crc32.Checksum(enc, wire.CRC) != sum {
		return nil, nil, lr.fail(errors.New("checksum mismatch: the record is corrupted"))
	}
	defer func() { lr.rec, lr.off = lr.rec+1, lr.off+int64(n)+int64(len(buf)) }()
	if len(enc) > 0 && enc[0] == noteMagic {
		if lr.notes++; lr.notes > maxLogNotes {
			return nil, nil, lr.fail(fmt.Errorf("more than %d notes", maxLogNotes))
		}
		note, err := ParseNote(enc)
		if err != nil {
			return nil, nil, lr.fail(err)
		}
		return nil, note, nil
	}
	if lr.notes > 0 {
		return nil, nil, lr.fail(errors.New("an entry after the notes that end a log"))
	}
	if lr.entries++; lr.entries > MaxLogEntries {
		return nil, nil, lr.fail(fmt.Errorf("more than %d entries: no table's log is that long", MaxLogEntries))
	}
	e, err := ParseEntry(enc)
	if err != nil {
		return nil, nil, lr.fail(err)
	}
	return e, nil, nil
}

// ReadLog reads a log file's entries (notes are skipped). On a bad or truncated record it
// returns the entries before it and a *LogError.
func ReadLog(r io.Reader) ([]*Entry, error) {
	entries, _, err := ReadLogNotes(r)
	return entries, err
}

// ReadLogNotes reads a log file: its entries and the notes at its end.
func ReadLogNotes(r io.Reader) ([]*Entry, []*Note, error) {
	lr, err := NewLogReader(r)
	if err != nil {
		return nil, nil, err
	}
	var entries []*Entry
	var notes []*Note
	for {
		e, n, err := lr.Next()
		switch {
		case err == io.EOF:
			return entries, notes, nil
		case err != nil:
			return entries, notes, err
		case e != nil:
			entries = append(entries, e)
		default:
			notes = append(notes, n)
		}
	}
}

// WriteLog writes a whole log file.
func WriteLog(w io.Writer, entries []*Entry) error {
	b := []byte(LogMagic)
	for _, e := range entries {
		b = AppendRecord(b, e)
	}
	_, err := w.Write(b)
	return err
}
