package group

import (
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
