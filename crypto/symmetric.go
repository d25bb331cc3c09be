package crypto

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
)

// KeyFor is a 32-byte key for one purpose, derived from a secret: HMAC-SHA256(secret, label).
// The label names the protocol, its version and the purpose ("corruption/private/v1
// messages"), so that one secret gives unrelated keys to unrelated uses. The protocol's
// private tables, its join handshake and a seat's notes to itself derive their keys so.
func KeyFor(secret []byte, label string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(label))
	return m.Sum(nil)
}

// AEAD is AES-256-GCM with a 32-byte key (from KeyFor, or drawn at random), with the standard
// 12-byte nonce, which its caller chooses and never repeats under one key.
func AEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("crypto: an AEAD key of %d bytes, want 32", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
