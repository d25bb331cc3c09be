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

// TestHelloSignatureOnce: a hello's signature is checked once where it arrives, not by both the
// channel's validator (Check) and the node's parse, and never taken on trust when any byte
// differs: a forged signature is checked, and refused, every time.
func TestHelloSignatureOnce(t *testing.T) {
	ann := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, 32))
	bob := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{4}, 32))
	calls := 0
	m := sigMemo{check: func(pub ed25519.PublicKey, msg, sig []byte) bool {
		calls++
		return ed25519.Verify(pub, msg, sig)
	}}
	pub := ann.Public().(ed25519.PublicKey)
	msg := []byte("a hello")
	sig := ed25519.Sign(ann, msg)
	for i := 0; i < 3; i++ {
		if !m.verify(pub, msg, sig) {
			t.Fatalf("a good signature refused (round %d)", i)
		}
	}
	if calls != 1 {
		t.Fatalf("a good signature checked %d times in three parses, want 1", calls)
	}
	forged := ed25519.Sign(bob, msg)
	other := append([]byte(nil), msg...)
	other[0] ^= 1
	for i := 0; i < 2; i++ {
		before := calls
		if m.verify(pub, msg, forged) {
			t.Fatal("bob's signature accepted as ann's")
		}
		if m.verify(pub, other, sig) {
			t.Fatal("a signature accepted for another message")
		}
		if m.verify(bob.Public().(ed25519.PublicKey), msg, sig) {
			t.Fatal("ann's signature accepted under bob's key")
		}
		if calls != before+3 {
			t.Fatalf("three bad signatures checked %d times, want 3 (a refusal must not be remembered)", calls-before)
		}
	}
	// The memory is bounded: helloMemoSize later signatures push the first out.
	for i := 0; i < helloMemoSize; i++ {
		mi := []byte{byte(i), byte(i >> 8)}
		if !m.verify(pub, mi, ed25519.Sign(ann, mi)) {
			t.Fatal("a good signature refused")
		}
	}
	if len(m.seen) != helloMemoSize {
		t.Fatalf("the memory holds %d signatures, want %d", len(m.seen), helloMemoSize)
	}
	before := calls
	if !m.verify(pub, msg, sig) || calls != before+1 {
		t.Fatalf("the oldest signature: checked %d times, want 1 (forgotten)", calls-before)
	}

	// Check (the table channel's validator) remembers a good hello for the node's parse, and
	// refuses one whose signature was altered.
	h := HelloMessageForTest(ann, "once", "corruption", []byte{0, 1}, 4, "TestHelloSignatureOnce")
	if !Check(h) {
		t.Fatal("Check refuses a good hello")
	}
	parsed, err := parseHello(h[1:])
	if err != nil {
		t.Fatal(err)
	}
	helloSigs.mu.Lock()
	n := len(helloSigs.seen)
	helloSigs.mu.Unlock()
	if n == 0 {
		t.Fatal("Check's verified hello is not remembered")
	}
	bad := append([]byte(nil), h...)
	bad[len(bad)-1] ^= 1
	if Check(bad) {
		t.Fatal("Check accepts a hello with an altered signature after the good one")
	}
	if _, err := parseHello(bad[1:]); err == nil || !strings.Contains(err.Error(), "bad signature") {
		t.Fatalf("parseHello of an altered signature: %v", err)
	}
	if parsed.name != "TestHelloSignatureOnce" {
		t.Fatalf("parsed hello of %q", parsed.name)
	}
}
