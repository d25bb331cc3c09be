package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Canonical binary encoding: big-endian integers, byte strings with a u32 length prefix.
// Decoders are strict: a short input, an oversize length or trailing bytes is an error, so
// whatever decodes re-encodes to the same bytes.

type writer struct{ b []byte }

func (w *writer) u8(v uint8)     { w.b = append(w.b, v) }
func (w *writer) u16(v uint16)   { w.b = binary.BigEndian.AppendUint16(w.b, v) }
func (w *writer) u32(v uint32)   { w.b = binary.BigEndian.AppendUint32(w.b, v) }
func (w *writer) u64(v uint64)   { w.b = binary.BigEndian.AppendUint64(w.b, v) }
func (w *writer) fixed(p []byte) { w.b = append(w.b, p...) }
func (w *writer) bytes(p []byte) { w.u32(uint32(len(p))); w.b = append(w.b, p...) }
func (w *writer) str(s string)   { w.bytes([]byte(s)) }
func (w *writer) flag(v bool) {
	if v {
		w.u8(1)
	} else {
		w.u8(0)
	}
}

var errShort = errors.New("truncated")

type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.fail(errShort)
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

func (r *reader) u8() uint8 {
	if p := r.take(1); p != nil {
		return p[0]
	}
	return 0
}

func (r *reader) u16() uint16 {
	if p := r.take(2); p != nil {
		return binary.BigEndian.Uint16(p)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if p := r.take(4); p != nil {
		return binary.BigEndian.Uint32(p)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if p := r.take(8); p != nil {
		return binary.BigEndian.Uint64(p)
	}
	return 0
}

func (r *reader) fixed(dst []byte) { copy(dst, r.take(len(dst))) }

// bytes reads a length-prefixed byte string of at most max bytes (a copy).
func (r *reader) bytes(max int, what string) []byte {
	n := r.u32()
	if r.err == nil && int64(n) > int64(max) {
		r.fail(fmt.Errorf("%s of %d bytes is longer than %d", what, n, max))
		return nil
	}
	return append([]byte(nil), r.take(int(n))...)
}

func (r *reader) str(max int, what string) string { return string(r.bytes(max, what)) }

func (r *reader) flag(what string) bool {
	switch v := r.u8(); v {
	case 0:
		return false
	case 1:
		return true
	default:
		r.fail(fmt.Errorf("%s: flag byte %d is not 0 or 1", what, v))
		return false
	}
}

// done reports the first error, or trailing bytes.
func (r *reader) done(what string) error {
	if r.err != nil {
		return fmt.Errorf("malformed %s: %w", what, r.err)
	}
	if len(r.b) > 0 {
		return fmt.Errorf("malformed %s: %d trailing bytes", what, len(r.b))
	}
	return nil
}
