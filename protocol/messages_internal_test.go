package protocol

import (
	"bytes"
	"crypto/ed25519"
	"strings"
	"testing"
)

// TestLeftNotice: a left notice decodes to what was signed, and every bad one is refused with
// an error that names it: cut short, with bytes after it, with a signature by another key, or
// for another table than the one signed.
func TestLeftNotice(t *testing.T) {
	ann := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, 32))
	bob := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{2}, 32))
	l := newLeft(ann, [32]byte{9})
	b := l.marshal()
	got, err := parseLeft(b[1:])
	if err != nil || got.table != l.table || !got.key.Equal(ann.Public()) || !Check(b) {
		t.Fatalf("a good notice: %+v, %v (Check %v)", got, err, Check(b))
	}
	forged := newLeft(ann, [32]byte{9})
	forged.sig = ed25519.Sign(bob, forged.unsigned()) // ann's key, bob's signature
	other := append([]byte(nil), b...)
	other[1] ^= 1 // another table than the one signed
	for name, c := range map[string]struct {
		msg  []byte
		want string
	}{
		"cut short":        {b[:len(b)-1], "left notice"},
		"trailing bytes":   {append(append([]byte(nil), b...), 0), "left notice"},
		"another's key":    {forged.marshal(), "bad signature"},
		"another table":    {other, "bad signature"},
		"nothing but kind": {[]byte{msgLeft}, "left notice"},
	} {
		if _, err := parseLeft(c.msg[1:]); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", name, err, c.want)
		}
		if Check(c.msg) {
			t.Errorf("%s: Check accepts it", name)
		}
	}
}
