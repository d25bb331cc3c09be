package crypto_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"corruption/crypto"
)

var update = flag.Bool("update", false, "rewrite testdata/vectors.txt from the current code")

const vectorsFile = "testdata/vectors.txt"

// vectorContext is the context of the test vectors, at some step.
func vectorContext(step string) crypto.Context {
	return crypto.Context{
		Table:  []byte("vector-table"),
		Roster: [][]byte{[]byte("alice"), []byte("bob"), []byte("carol")},
		Step:   step,
	}
}

type vector struct{ name, hex string }

// makeVectors plays a small game with a fixed reader and lists every wire encoding.
func makeVectors(t testing.TB) []vector {
	rnd := crypto.NewDetReader("corruption/crypto/v1 test vectors")
	var vs []vector
	add := func(name string, b []byte) { vs = append(vs, vector{name, hex.EncodeToString(b)}) }
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}

	for i := 0; i < deckSize; i++ {
		p, err := crypto.CardPoint(i)
		must(err)
		add(fmt.Sprintf("card %d", i), p.Bytes())
	}
	keysCtx := vectorContext("keys")
	var keys []*crypto.PrivateKey
	var proofs []*crypto.KeyProof
	for seat := 0; seat < 3; seat++ {
		k, err := crypto.GenerateKey(rnd)
		must(err)
		kp, err := crypto.ProveKey(rnd, keysCtx, seat, k)
		must(err)
		keys, proofs = append(keys, k), append(proofs, kp)
		add(fmt.Sprintf("private key %d", seat), k.Bytes())
		add(fmt.Sprintf("key proof %d", seat), kp.Bytes())
	}
	joint, err := crypto.JointKey(keysCtx, proofs)
	must(err)
	add("joint key", joint.Bytes())

	deck, err := crypto.CanonicalDeck(deckSize)
	must(err)
	out, proof, err := crypto.Shuffle(rnd, vectorContext("shuffle"), 0, joint, deck)
	must(err)
	add("shuffle 0 deck", out.Bytes())
	add("shuffle 0 proof", proof.Bytes())

	dealCtx := vectorContext("deal 0")
	var shares []*crypto.Share
	for seat, k := range keys {
		sh, err := crypto.DecryptShare(rnd, dealCtx, seat, k, &out[0])
		must(err)
		shares = append(shares, sh)
		add(fmt.Sprintf("deal 0 share %d", seat), sh.Bytes())
	}
	card, err := crypto.DecodeCard(crypto.CombineShares(&out[0], shares), deckSize)
	must(err)
	add("deal 0 card", []byte{byte(card)})

	placeCtx := vectorContext("place")
	commit, opening, err := crypto.Commit(rnd, placeCtx, 1, 2, 3, []byte("da"))
	must(err)
	add("commitment 1 2 3", commit.Bytes())
	add("opening 1 2 3", opening.Bytes())

	randCtx := vectorContext("first player")
	var reveals []crypto.RandomReveal
	for seat := 0; seat < 3; seat++ {
		c, v, err := crypto.CommitRandom(rnd, randCtx, seat)
		must(err)
		reveals = append(reveals, v)
		add(fmt.Sprintf("random commitment %d", seat), c.Bytes())
		add(fmt.Sprintf("random reveal %d", seat), v.Bytes())
	}
	first, err := crypto.JointInt(randCtx, reveals, 3)
	must(err)
	add("first player", []byte{byte(first)})

	sealCtx := vectorContext("peek answer")
	box, err := crypto.Seal(rnd, sealCtx, 1, 0, keys[0].Public(), opening.Bytes())
	must(err)
	blame, err := crypto.ProveBlame(rnd, sealCtx, 1, 0, keys[0], box)
	must(err)
	add("sealed box 1 to 0", box.Bytes())
	add("blame 1 to 0", blame.Bytes())
	return vs
}

// TestVectors regenerates the vectors and compares them with testdata/vectors.txt, so
// any change to the bytes on the wire is caught. Run with -update to accept a change.
func TestVectors(t *testing.T) {
	vs := makeVectors(t)
	if *update {
		var b bytes.Buffer
		b.WriteString("# corruption/crypto/v1 test vectors: a 3-player table played with the reader\n")
		b.WriteString("# NewDetReader(\"corruption/crypto/v1 test vectors\"). Regenerate with\n")
		b.WriteString("# go test ./crypto -run TestVectors -update\n")
		for _, v := range vs {
			fmt.Fprintf(&b, "%s: %s\n", v.name, v.hex)
		}
		if err := os.WriteFile(vectorsFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stored := readVectors(t)
	if len(stored) != len(vs) {
		t.Errorf("%s has %d vectors, the code makes %d", vectorsFile, len(stored), len(vs))
	}
	for i := 0; i < len(vs) && i < len(stored); i++ {
		if stored[i].name != vs[i].name || stored[i].hex != vs[i].hex {
			t.Errorf("%s:%d: %q changed:\n stored %.80s…\n now    %.80s…",
				vectorsFile, stored[i].line, stored[i].name, stored[i].hex, vs[i].hex)
		}
	}
}

type storedVector struct {
	vector
	line int
}

func readVectors(t testing.TB) []storedVector {
	f, err := os.Open(vectorsFile)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	defer f.Close()
	var out []storedVector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		name, h, ok := strings.Cut(text, ": ")
		if !ok {
			t.Fatalf("%s:%d: no \": \"", vectorsFile, line)
		}
		out = append(out, storedVector{vector{name, h}, line})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestVectorsVerify decodes the stored vectors and checks them with the public API
// alone, as an auditor would: the file is valid in itself, not just equal to the code.
func TestVectorsVerify(t *testing.T) {
	m := map[string][]byte{}
	for _, v := range readVectors(t) {
		b, err := hex.DecodeString(v.hex)
		if err != nil {
			t.Fatalf("%s:%d: %v", vectorsFile, v.line, err)
		}
		m[v.name] = b
	}
	check := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("vector %s: %v", what, err)
		}
	}
	var proofs []*crypto.KeyProof
	for seat := 0; seat < 3; seat++ {
		kp, err := crypto.ParseKeyProof(m[fmt.Sprintf("key proof %d", seat)])
		check("key proof", err)
		proofs = append(proofs, kp)
	}
	joint, err := crypto.JointKey(vectorContext("keys"), proofs)
	check("joint key", err)
	if !bytes.Equal(joint.Bytes(), m["joint key"]) {
		t.Errorf("joint key differs")
	}
	deck, _ := crypto.CanonicalDeck(deckSize)
	out, err := crypto.ParseDeck(m["shuffle 0 deck"])
	check("shuffle 0 deck", err)
	proof, err := crypto.ParseShuffleProof(m["shuffle 0 proof"])
	check("shuffle 0 proof", err)
	check("shuffle 0", crypto.VerifyShuffle(vectorContext("shuffle"), 0, joint, deck, out, proof))
	var shares []*crypto.Share
	for seat := 0; seat < 3; seat++ {
		sh, err := crypto.ParseShare(m[fmt.Sprintf("deal 0 share %d", seat)])
		check("share", err)
		check("share", crypto.VerifyShare(vectorContext("deal 0"), seat, proofs[seat].PublicKey(), &out[0], sh))
		shares = append(shares, sh)
	}
	card, err := crypto.DecodeCard(crypto.CombineShares(&out[0], shares), deckSize)
	check("deal 0", err)
	if card != int(m["deal 0 card"][0]) {
		t.Errorf("deal 0: card %d, vector says %d", card, m["deal 0 card"][0])
	}
	commit, _ := crypto.ParseCommitment(m["commitment 1 2 3"])
	opening, err := crypto.ParseOpening(m["opening 1 2 3"])
	check("opening", err)
	if c, err := crypto.VerifyOpening(vectorContext("reveal"), 1, 2, 3, commit, opening); err != nil || string(c) != "da" {
		t.Errorf("opening: %q, %v", c, err)
	}
	var reveals []crypto.RandomReveal
	for seat := 0; seat < 3; seat++ {
		c, _ := crypto.ParseRandomCommitment(m[fmt.Sprintf("random commitment %d", seat)])
		v, _ := crypto.ParseRandomReveal(m[fmt.Sprintf("random reveal %d", seat)])
		check("random reveal", crypto.VerifyReveal(vectorContext("first player"), seat, c, v))
		reveals = append(reveals, v)
	}
	if first, _ := crypto.JointInt(vectorContext("first player"), reveals, 3); first != int(m["first player"][0]) {
		t.Errorf("first player %d, vector says %d", first, m["first player"][0])
	}
	box, err := crypto.ParseSealedBox(m["sealed box 1 to 0"])
	check("sealed box", err)
	check("sealed box", crypto.VerifySealedBox(vectorContext("peek answer"), 1, 0, proofs[0].PublicKey(), box))
	blame, err := crypto.ParseBlame(m["blame 1 to 0"])
	check("blame", err)
	msg, err := crypto.VerifyBlame(vectorContext("peek answer"), 1, 0, proofs[0].PublicKey(), box, blame)
	check("blame", err)
	if !bytes.Equal(msg, m["opening 1 2 3"]) {
		t.Errorf("the blame shows %x, not the opening", msg)
	}
}
