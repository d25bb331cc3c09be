package ui

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
)

// The page's names for its node. Every node's page is served on 127.0.0.1 (or localhost), and
// a browser keeps one jar of cookies per host whatever the port: two nodes' pages in one
// browser would share a cookie of one name, and the second page's key would wipe the first's.
// So each node names its own: its node id, a digest of its session key, names the cookie that
// keeps the key (corruption_key_ID) and the page's storage (the page reads the id from the
// page's <meta name="corruption-node">, and api.js keeps every stored key under it).
//
// What it promises: two servers with different keys have different cookie names and storage
// names (but for a 48-bit collision); the same key, the same names (a node started again with
// the same key keeps its page's settings); the id says nothing of the key but that digest.

// nodeID is the page's node id for session key key: 12 hex digits.
func nodeID(key string) string {
	sum := sha256.Sum256([]byte("corruption page node\x00" + key))
	return hex.EncodeToString(sum[:6])
}

// cookieName is the name of the cookie that keeps this node's session key.
func (s *Server) cookieName() string { return "corruption_key_" + s.node }

// Node is the page's node id: the name of its cookie and of its storage.
func (s *Server) Node() string { return s.node }

// nodeMeta is the tag of index.html that names the page's node.
const nodeMeta = `<meta name="corruption-node" content="">`

// pageFor is the shell's index.html naming node in its nodeMeta.
func pageFor(shell fs.FS, node string) ([]byte, error) {
	page, err := fs.ReadFile(shell, "index.html")
	if err != nil {
		return nil, fmt.Errorf("the page's files: %w", err)
	}
	if !bytes.Contains(page, []byte(nodeMeta)) {
		return nil, fmt.Errorf("the page's index.html has no %s", nodeMeta)
	}
	return bytes.Replace(page, []byte(nodeMeta), fmt.Appendf(nil, `<meta name="corruption-node" content="%s">`, node), 1), nil
}

// validGameID: a game's id, which names its board's files (/static/boards/ID/), is 1 to 32
// lowercase letters and digits.
func validGameID(id string) bool {
	if id == "" || len(id) > 32 {
		return false
	}
	for _, c := range id {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
