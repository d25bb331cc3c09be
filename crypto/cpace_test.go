package crypto

import (
	"bufio"
	"bytes"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"

	"corruption/crypto/internal/group"
)

// cpaceVectors reads testdata/cpace.txt: the draft's vectors, by name, with their lines.
func cpaceVectors(t *testing.T) (map[string][]byte, map[string]int) {
	t.Helper()
	f, err := os.Open("testdata/cpace.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vs, lines := map[string][]byte{}, map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<16)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, h, ok := strings.Cut(line, ": ")
		b, err := hex.DecodeString(h)
		if !ok || err != nil {
			t.Fatalf("testdata/cpace.txt:%d: not name: hex", n)
		}
		vs[name], lines[name] = b, n
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs, lines
}

// TestCPaceVectors runs the draft's CPACE-RISTRETTO255-SHA512 vectors: the encodings, the
// generator, both shares from the given scalars (through NewCPace's sampling), the shared
// point and the initiator-responder ISK on both sides.
func TestCPaceVectors(t *testing.T) {
	v, line := cpaceVectors(t)
	check := func(name string, got []byte) {
		t.Helper()
		if !bytes.Equal(got, v[name]) {
			t.Errorf("testdata/cpace.txt:%d: %s = %x, want %x", line[name], name, got, v[name])
		}
	}
	check("lv_cat(1234,5,,678)", lvCat([]byte("1234"), []byte("5"), nil, []byte("678")))
	check("transcript_ir(123,PartyA,234,PartyB)",
		append(lvCat([]byte("123"), []byte("PartyA")), lvCat([]byte("234"), []byte("PartyB"))...))
	gs := cpaceGeneratorString(v["PRS"], v["CI"], v["sid"])
	check("generator_string", gs)
	sum := sha512.Sum512(gs)
	check("hash_result", sum[:])
	check("g", cpaceGenerator(v["PRS"], v["CI"], v["sid"]).Bytes())

	a, err := NewCPace(bytes.NewReader(v["ya"]), v["PRS"], v["CI"], v["sid"])
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewCPace(bytes.NewReader(v["yb"]), v["PRS"], v["CI"], v["sid"])
	if err != nil {
		t.Fatal(err)
	}
	check("Ya", a.Share())
	check("Yb", b.Share())
	var yb group.Element
	if err := decodeElement(&yb, v["Yb"]); err != nil {
		t.Fatal(err)
	}
	check("K", group.NewIdentityElement().ScalarMult(&a.y, &yb).Bytes())
	for who, c := range map[string]*CPace{"initiator": a, "responder": b} {
		isk, err := c.Key(v["Ya"], v["ADa"], v["Yb"], v["ADb"])
		if err != nil {
			t.Fatalf("%s: %v", who, err)
		}
		check("ISK_IR", isk)
	}
}

// TestCPaceScalarMultVfy: the draft's valid input, and its two inputs that must abort (a
// string that is no element; the identity), as a peer's share.
func TestCPaceScalarMultVfy(t *testing.T) {
	v, _ := cpaceVectors(t)
	var s group.Scalar
	if _, err := s.SetCanonicalBytes(v["s"]); err != nil {
		t.Fatal(err)
	}
	var x group.Element
	if err := decodeElement(&x, v["X"]); err != nil {
		t.Fatal(err)
	}
	if got := group.NewIdentityElement().ScalarMult(&s, &x).Bytes(); !bytes.Equal(got, v["sX"]) {
		t.Errorf("s·X = %x, want %x", got, v["sX"])
	}
	c := &CPace{y: s, share: v["X"]} // the party's own share is X: the peer's is the bad one
	for _, bad := range []string{"Y_i1", "Y_i2"} {
		if _, err := c.Key(v["X"], nil, v[bad], nil); !errors.Is(err, ErrNonCanonical) {
			t.Errorf("%s as the peer's share: got %v, want ErrNonCanonical", bad, err)
		}
	}
}

func cpacePair(t testing.TB, pa, pb string) (*CPace, *CPace) {
	t.Helper()
	ci, sid := []byte("alice bob"), []byte("0123456789abcdef")
	a, err := NewCPace(NewDetReader("cpace a "+pa), []byte(pa), ci, sid)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewCPace(NewDetReader("cpace b "+pb), []byte(pb), ci, sid)
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

// TestCPaceMismatch: a wrong password, or any change to the transcript, gives unrelated keys;
// a party refuses a transcript without its own share.
func TestCPaceMismatch(t *testing.T) {
	a, b := cpacePair(t, "7k3-m9x", "7k3-m9x")
	ka, err := a.Key(a.Share(), []byte("A"), b.Share(), []byte("B"))
	if err != nil {
		t.Fatal(err)
	}
	kb, err := b.Key(a.Share(), []byte("A"), b.Share(), []byte("B"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ka, kb) || len(ka) != CPaceKeySize {
		t.Fatalf("same password: keys differ (%x, %x)", ka, kb)
	}
	if k, _ := b.Key(a.Share(), []byte("A'"), b.Share(), []byte("B")); bytes.Equal(k, ka) {
		t.Error("other associated data: same key")
	}
	w, b2 := cpacePair(t, "7k3-m9x", "7k3-m9y")
	kw, _ := w.Key(w.Share(), nil, b2.Share(), nil)
	kw2, _ := b2.Key(w.Share(), nil, b2.Share(), nil)
	if bytes.Equal(kw, kw2) {
		t.Error("different passwords: same key")
	}
	if _, err := a.Key(b.Share(), nil, b.Share(), nil); err == nil {
		t.Error("a transcript without the party's own share was accepted")
	}
	if _, err := a.Key(a.Share(), nil, []byte{1, 2, 3}, nil); !errors.Is(err, ErrNonCanonical) {
		t.Errorf("a short peer share: got %v, want ErrNonCanonical", err)
	}
	if _, err := NewCPace(bytes.NewReader(make([]byte, 32)), nil, nil, nil); err == nil {
		t.Error("a zero scalar was accepted")
	}
	if _, err := NewCPace(bytes.NewReader(nil), nil, nil, nil); err == nil {
		t.Error("failing randomness was accepted")
	}
}

// TestCPaceShareHidesPassword: the share is y·g for a fresh y, so for any password every
// element is as likely. The test shows the weaker fact a test can: the same randomness under
// two passwords gives unrelated shares, and neither is the password's generator.
func TestCPaceShareHidesPassword(t *testing.T) {
	a, b := cpacePair(t, "one", "two")
	g := cpaceGenerator([]byte("one"), []byte("alice bob"), []byte("0123456789abcdef")).Bytes()
	if bytes.Equal(a.Share(), b.Share()) || bytes.Equal(a.Share(), g) {
		t.Fatal("a share is the generator, or does not depend on the scalar")
	}
}

func BenchmarkCPaceExchange(b *testing.B) {
	ci, sid := []byte("alice bob"), []byte("0123456789abcdef")
	rnd := NewDetReader("cpace bench")
	for b.Loop() {
		x, _ := NewCPace(rnd, []byte("7k3m9x"), ci, sid)
		y, _ := NewCPace(rnd, []byte("7k3m9x"), ci, sid)
		if _, err := x.Key(x.Share(), nil, y.Share(), nil); err != nil {
			b.Fatal(err)
		}
		if _, err := y.Key(x.Share(), nil, y.Share(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzCPaceKey: any peer share and associated data give a key or ErrNonCanonical, never a
// panic; a key only for a share that is a canonical element other than the identity.
func FuzzCPaceKey(f *testing.F) {
	a, b := cpacePair(f, "7k3m9x", "7k3m9x")
	f.Add(b.Share(), []byte("ADb"))
	f.Add(make([]byte, 32), []byte{})
	f.Add([]byte{1, 2, 3}, []byte("x"))
	f.Fuzz(func(t *testing.T, peer, ad []byte) {
		k, err := a.Key(a.Share(), nil, peer, ad)
		if err != nil {
			if !errors.Is(err, ErrNonCanonical) {
				t.Fatalf("share %x: %v", peer, err)
			}
			return
		}
		var p group.Element
		if len(k) != CPaceKeySize || decodeElement(&p, peer) != nil || p.Equal(identity) == 1 {
			t.Fatalf("a key for share %x", peer)
		}
	})
}
