package group

import (
	"crypto/sha512"
	"runtime"
	"strings"
	"testing"
)

// TestSelection holds the build tags to their promise: WebAssembly gets the 32-bit limbs.
func TestSelection(t *testing.T) {
	t.Logf("group implementation: %s", Implementation)
	if runtime.GOARCH == "wasm" && !strings.Contains(Implementation, "ristretto32") {
		t.Errorf("GOARCH=wasm runs %s, want crypto/internal/ristretto32", Implementation)
	}
	// The two implementations must agree on the generator's encoding (RFC 9496 A.1).
	const want = "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76"
	var got strings.Builder
	for _, c := range NewGeneratorElement().Bytes() {
		got.WriteString(string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15]))
	}
	if got.String() != want {
		t.Errorf("generator encodes to %s, want %s", got.String(), want)
	}
}

// TestTables holds VarTimeTablesMult to VarTimeMultiScalarMult, in whichever implementation
// this build runs, for random scalars and the edges of the radix-16 recoding (0, 1, 15, 16,
// ℓ − 1, every nibble 8, the largest canonical top digits), random bases and the identity,
// one table, two (the generator's among them) and none.
func TestTables(t *testing.T) {
	seed := sha512.Sum512([]byte("group tables"))
	next := func() *Scalar { // a deterministic stream of random scalars
		seed = sha512.Sum512(seed[:])
		s, err := NewScalar().SetUniformBytes(seed[:])
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	small := func(v byte) *Scalar {
		var b [32]byte
		b[0] = v
		s, err := NewScalar().SetCanonicalBytes(b[:])
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	eights := small(0)
	b8 := make([]byte, 32)
	for i := range b8 {
		b8[i] = 0x88
	}
	b8[31] = 0x08
	if _, err := eights.SetCanonicalBytes(b8); err != nil {
		t.Fatal(err)
	}
	scalars := []*Scalar{small(0), small(1), small(15), small(16), NewScalar().Negate(small(1)), eights,
		NewScalar().Negate(small(16))}
	for i := 0; i < 12; i++ {
		scalars = append(scalars, next())
	}
	base := NewGeneratorElement()
	var p Element
	for i, s := range scalars {
		p.ScalarMult(next(), base)
		if i%6 == 0 {
			p.Set(NewIdentityElement())
		}
		s2 := scalars[(3*i+1)%len(scalars)]
		tp := NewTable(&p)
		var got, want Element
		VarTimeTablesMult(&got, []*Scalar{s}, []*Table{tp})
		want.ScalarMult(s, &p)
		if got.Equal(&want) != 1 {
			t.Fatalf("scalar %d: one table gives %x, want %x", i, got.Bytes(), want.Bytes())
		}
		VarTimeTablesMult(&got, []*Scalar{s2, s}, []*Table{BaseTable(), tp})
		want.VarTimeDoubleScalarBaseMult(s, &p, s2)
		if got.Equal(&want) != 1 {
			t.Fatalf("scalar %d: the generator's table and another give %x, want %x", i, got.Bytes(), want.Bytes())
		}
	}
	var got Element
	if VarTimeTablesMult(&got, nil, nil).Equal(NewIdentityElement()) != 1 {
		t.Fatal("no tables: not the identity")
	}
}

// BenchmarkNewTable: what a key's first table costs (crypto builds one the second time a
// check meets a key), and BenchmarkTablesMult what s·G − c·Y costs with the two tables,
// against VarTimeDoubleScalarBaseMult:
//
//	go test -run '^$' -bench 'Table|DoubleScalar' -cpu 1 ./crypto/internal/group/   (and -tags group32, or in Node)
func BenchmarkNewTable(b *testing.B) {
	p := NewGeneratorElement()
	p.Add(p, p)
	for b.Loop() {
		NewTable(p)
	}
}

func benchScalars(b *testing.B) (*Scalar, *Scalar) {
	x := sha512.Sum512([]byte("bench x"))
	y := sha512.Sum512([]byte("bench y"))
	s, err := NewScalar().SetUniformBytes(x[:])
	if err != nil {
		b.Fatal(err)
	}
	c, err := NewScalar().SetUniformBytes(y[:])
	if err != nil {
		b.Fatal(err)
	}
	return s, c
}

func BenchmarkTablesMult(b *testing.B) {
	s, c := benchScalars(b)
	p := NewGeneratorElement()
	p.Add(p, p)
	t := NewTable(p)
	var out Element
	for b.Loop() {
		VarTimeTablesMult(&out, []*Scalar{c, s}, []*Table{t, BaseTable()})
	}
}

func BenchmarkDoubleScalarBaseMult(b *testing.B) {
	s, c := benchScalars(b)
	p := NewGeneratorElement()
	p.Add(p, p)
	var out Element
	for b.Loop() {
		out.VarTimeDoubleScalarBaseMult(c, p, s)
	}
}
