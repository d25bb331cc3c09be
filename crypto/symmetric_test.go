package crypto_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"corruption/crypto"
)

// TestKeyFor: KeyFor is HMAC-SHA256 (RFC 4231's test case 2), and AEAD is AES-256-GCM that
// opens what it sealed, refuses a key of another length and a tampered box.
func TestKeyForAndAEAD(t *testing.T) {
	got := hex.EncodeToString(crypto.KeyFor([]byte("Jefe"), "what do ya want for nothing?"))
	if want := "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"; got != want {
		t.Errorf("KeyFor = %s, want RFC 4231's %s", got, want)
	}
	if _, err := crypto.AEAD(make([]byte, 16)); err == nil || !strings.Contains(err.Error(), "16 bytes") {
		t.Errorf("a 16-byte key: %v, want refused", err)
	}
	a, err := crypto.AEAD(crypto.KeyFor([]byte("secret"), "corruption/test/v1 box"))
	if err != nil {
		t.Fatal(err)
	}
	nonce := make([]byte, a.NonceSize())
	box := a.Seal(nil, nonce, []byte("card 7"), nil)
	if plain, err := a.Open(nil, nonce, box, nil); err != nil || string(plain) != "card 7" {
		t.Errorf("open: %q, %v", plain, err)
	}
	box[0] ^= 1
	if _, err := a.Open(nil, nonce, box, nil); err == nil {
		t.Error("a tampered box opened")
	}
}
