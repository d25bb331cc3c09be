package protocol_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corruption/protocol"
)

// TestSavedPrivate: a private table kept in the data directory is found again by the code it
// was joined with (or as the one created) once its log has begun, and not before, nor by
// another code; a damaged file is an error that names it.
func TestSavedPrivate(t *testing.T) {
	dir := t.TempDir()
	store, err := protocol.OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	me, err := store.Identity()
	if err != nil {
		t.Fatal(err)
	}
	pt, err := protocol.NewPrivateTable(nil, me.Public().(ed25519.PublicKey), toyID, []byte{1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	const code = "2s-fn8-de6"
	if err := store.SavePrivate(code, pt); err != nil {
		t.Fatal(err)
	}
	if got, err := store.SavedPrivate(code); got != nil || err != nil {
		t.Fatalf("a table whose log has not begun: %v, %v; want none", got, err)
	}
	// Its log begins.
	var roster []protocol.Member
	for i := range 3 {
		_, k, _ := ed25519.GenerateKey(rand.Reader)
		if i == 0 {
			k = me
		}
		roster = append(roster, protocol.Member{Name: string(rune('a' + i)), Key: k.Public().(ed25519.PublicKey)})
	}
	gen, err := protocol.NewGenesis(rand.Reader, me, &protocol.Genesis{Name: pt.Name(), Game: toyID, Config: []byte{1}, Timeout: time.Minute, Roster: roster})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.OpenLog(pt.Name()); err != nil {
		t.Fatal(err)
	}
	if err := store.Append(gen, true); err != nil {
		t.Fatal(err)
	}
	got, err := store.SavedPrivate(code)
	if err != nil || got == nil || got.Name() != pt.Name() || got.Channel() != pt.Channel() || got.Game != toyID || got.Players != 3 {
		t.Fatalf("the saved table: %+v, %v; want %s", got, err, pt.Name())
	}
	if got, err := store.SavedPrivate("2s-fn8-de7"); got != nil || err != nil {
		t.Fatalf("another code finds %v, %v", got, err)
	}
	if got, err := store.SavedPrivate(""); got != nil || err != nil {
		t.Fatalf("no table was created here, yet %v, %v", got, err)
	}
	// The file holds the table, not the code.
	files, _ := filepath.Glob(filepath.Join(dir, "private", "*"))
	if len(files) != 1 {
		t.Fatalf("private/ holds %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b)+files[0], "fn8") || strings.Contains(string(b)+files[0], "de6") {
		t.Error("the saved file shows the join code")
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("the saved table's mode is %v, want 0600", fi.Mode().Perm())
	}
	if err := os.WriteFile(files[0], b[:10], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := store.SavedPrivate(code); err == nil || !strings.Contains(err.Error(), files[0]) {
		t.Errorf("a damaged file: %v, want an error naming it", err)
	}
}
