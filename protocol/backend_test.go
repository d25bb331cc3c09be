package protocol_test

import (
	"testing"

	"corruption/protocol"
	"corruption/protocol/backendtest"
)

// TestDirBackend: the data directory keeps the Backend's promises, and a Store works on it.
func TestDirBackend(t *testing.T) {
	dir := t.TempDir()
	open := func() protocol.Backend {
		b, err := protocol.NewDirBackend(dir)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	backendtest.Run(t, open)
	backendtest.Store(t, func() protocol.Backend { return open() })
}
