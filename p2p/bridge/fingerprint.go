package bridge

import "crypto/sha256"

// Fingerprint is a short digest of a laptop's peer id, in eight characters a person reads
// aloud ("k3mx-2q7f": 40 bits of SHA-256 in Crockford's base 32): the phone's page shows it
// beside the laptop's label, and the laptop prints it, so that a person can see which machine
// a phone reached. It comes from the hub's Welcome, which no other phone can write.
func Fingerprint(node string) string {
	const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
	sum := sha256.Sum256([]byte(node))
	v := uint64(sum[0])<<32 | uint64(sum[1])<<24 | uint64(sum[2])<<16 | uint64(sum[3])<<8 | uint64(sum[4])
	var b [9]byte
	for i := 8; i >= 0; i-- {
		if i == 4 {
			b[i] = '-'
			continue
		}
		b[i] = alphabet[v&31]
		v >>= 5
	}
	return string(b[:])
}
