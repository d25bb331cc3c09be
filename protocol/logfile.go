package protocol

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// The log file: the magic line, then one record per entry: u32 length, the entry's canonical
// encoding, u32 CRC-32C of the encoding. Nodes save their table's log in it, `--out` writes
// it, and audit and replay read it. Entries are in log order; a node that halted a table on
// a cheat appends the offending entry, signed by the cheater, as the proof.

// LogMagic opens every log file.
const LogMagic = "corruption log v1\n"

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// AppendRecord appends one entry's record to b.
func AppendRecord(b []byte, e *Entry) []byte { return appendRecordBytes(b, e.Marshal()) }

func appendRecordBytes(b, enc []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(enc)))
	b = append(b, enc...)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(enc, crcTable))
}

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

// ReadLog reads a log file's entries (notes are skipped). On a bad or truncated record it
// returns the entries before it and a *LogError.
func ReadLog(r io.Reader) ([]*Entry, error) {
	entries, _, err := ReadLogNotes(r)
	return entries, err
}

// ReadLogNotes reads a log file: its entries and the notes at its end.
func ReadLogNotes(r io.Reader) ([]*Entry, []*Note, error) {
	br := bufio.NewReader(r)
	magic := make([]byte, len(LogMagic))
	if n, err := io.ReadFull(br, magic); err != nil || string(magic) != LogMagic {
		if n == 0 && err == io.EOF {
			return nil, nil, &LogError{Err: errors.New("the file is empty, not a corruption log")}
		}
		return nil, nil, &LogError{Err: errors.New("not a corruption log (bad magic line)")}
	}
	var entries []*Entry
	var notes []*Note
	off := int64(len(LogMagic))
	for rec := 1; ; rec++ {
		var hdr [4]byte
		n, err := io.ReadFull(br, hdr[:])
		if err == io.EOF {
			return entries, notes, nil
		}
		if err != nil {
			return entries, notes, &LogError{rec, off, ErrTruncated}
		}
		size := binary.BigEndian.Uint32(hdr[:])
		if size > MaxEntrySize {
			return entries, notes, &LogError{rec, off, fmt.Errorf("record of %d bytes is larger than an entry can be", size)}
		}
		buf := make([]byte, size+4)
		if _, err := io.ReadFull(br, buf); err != nil {
			return entries, notes, &LogError{rec, off, ErrTruncated}
		}
		enc, sum := buf[:size], binary.BigEndian.Uint32(buf[size:])
		if crc32.Checksum(enc, crcTable) != sum {
			return entries, notes, &LogError{rec, off, errors.New("checksum mismatch: the record is corrupted")}
		}
		at := off
		off += int64(n) + int64(len(buf))
		if len(enc) > 0 && enc[0] == noteMagic {
			note, err := ParseNote(enc)
			if err != nil {
				return entries, notes, &LogError{rec, at, err}
			}
			notes = append(notes, note)
			continue
		}
		if len(notes) > 0 {
			return entries, notes, &LogError{rec, at, errors.New("an entry after the notes that end a log")}
		}
		e, err := ParseEntry(enc)
		if err != nil {
			return entries, notes, &LogError{rec, at, err}
		}
		entries = append(entries, e)
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
