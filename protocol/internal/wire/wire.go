// Package wire is the canonical binary encoding the table's entries, messages and log records
// are written in: big-endian integers, byte strings with a u32 length prefix, and records
// framed with their length and a CRC-32C. Decoders are strict: a short input, an oversize length
// or trailing bytes is an error, so whatever decodes re-encodes to the same bytes.
package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Writer appends encodings to B.
type Writer struct{ B []byte }

func (w *Writer) U8(v uint8)     { w.B = append(w.B, v) }
func (w *Writer) U16(v uint16)   { w.B = binary.BigEndian.AppendUint16(w.B, v) }
func (w *Writer) U32(v uint32)   { w.B = binary.BigEndian.AppendUint32(w.B, v) }
func (w *Writer) U64(v uint64)   { w.B = binary.BigEndian.AppendUint64(w.B, v) }
func (w *Writer) Fixed(p []byte) { w.B = append(w.B, p...) }
func (w *Writer) Bytes(p []byte) { w.U32(uint32(len(p))); w.B = append(w.B, p...) }
func (w *Writer) Str(s string)   { w.Bytes([]byte(s)) }
func (w *Writer) Flag(v bool) {
	if v {
		w.U8(1)
	} else {
		w.U8(0)
	}
}

// ErrShort: the input ends early.
var ErrShort = errors.New("truncated")

// Reader decodes from B; the first error sticks, and Done reports it.
type Reader struct {
	B   []byte
	Err error
}

func (r *Reader) Fail(err error) {
	if r.Err == nil {
		r.Err = err
	}
}

func (r *Reader) Take(n int) []byte {
	if r.Err != nil {
		return nil
	}
	if n < 0 || n > len(r.B) {
		r.Fail(ErrShort)
		return nil
	}
	p := r.B[:n:n]
	r.B = r.B[n:]
	return p
}

func (r *Reader) U8() uint8 {
	if p := r.Take(1); p != nil {
		return p[0]
	}
	return 0
}

func (r *Reader) U16() uint16 {
	if p := r.Take(2); p != nil {
		return binary.BigEndian.Uint16(p)
	}
	return 0
}

func (r *Reader) U32() uint32 {
	if p := r.Take(4); p != nil {
		return binary.BigEndian.Uint32(p)
	}
	return 0
}

func (r *Reader) U64() uint64 {
	if p := r.Take(8); p != nil {
		return binary.BigEndian.Uint64(p)
	}
	return 0
}

func (r *Reader) Fixed(dst []byte) { copy(dst, r.Take(len(dst))) }

// bytes reads a length-prefixed byte string of at most max bytes (a copy).
func (r *Reader) Bytes(max int, what string) []byte {
	n := r.U32()
	if r.Err == nil && int64(n) > int64(max) {
		r.Fail(fmt.Errorf("%s of %d bytes is longer than %d", what, n, max))
		return nil
	}
	return append([]byte(nil), r.Take(int(n))...)
}

func (r *Reader) Str(max int, what string) string { return string(r.Bytes(max, what)) }

func (r *Reader) Flag(what string) bool {
	switch v := r.U8(); v {
	case 0:
		return false
	case 1:
		return true
	default:
		r.Fail(fmt.Errorf("%s: flag byte %d is not 0 or 1", what, v))
		return false
	}
}

// done reports the first error, or trailing bytes.
func (r *Reader) Done(what string) error {
	if r.Err != nil {
		return fmt.Errorf("malformed %s: %w", what, r.Err)
	}
	if len(r.B) > 0 {
		return fmt.Errorf("malformed %s: %d trailing bytes", what, len(r.B))
	}
	return nil
}

// Records: how the log file frames each entry or note: u32 length ‖ the encoding ‖ u32
// CRC-32C of the encoding.

// CRC is the records' checksum table (Castagnoli).
var CRC = crc32.MakeTable(crc32.Castagnoli)

// AppendRecord appends one record framing enc to b.
func AppendRecord(b, enc []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(enc)))
	b = append(b, enc...)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(enc, CRC))
}
