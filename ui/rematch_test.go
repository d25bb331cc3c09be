package ui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"bytes"
	"corruption/engine"
	"corruption/protocol"
	"crypto/ed25519"
	"slices"
)

func TestRematchOf(t *testing.T) {
	long := strings.Repeat("é", protocol.MaxNameSize/2)
	for _, tt := range []struct{ table, want string }{
		{"friday", "friday #2"},
		{"friday #2", "friday #3"},
		{"friday #9", "friday #10"},
		{"friday #1", "friday #1 #2"},
		{"friday #02", "friday #02 #2"},
		{"friday-2", "friday-2 #2"},
		{"#3", "#3 #2"},
		{" #3", " #4"},
		{"e2e-163334", "e2e-163334 #2"},
	} {
		c := TableChoice{Table: tt.table, Game: "pick", Players: 3, Config: []byte{1}}
		got := RematchOf(c)
		if got.Table != tt.want || got.Game != c.Game || got.Players != c.Players || string(got.Config) != string(c.Config) {
			t.Errorf("RematchOf(%q) = %+v, want table %q and the same settings", tt.table, got, tt.want)
		}
	}
	// A name at the limit stays within it, cut on a character.
	got := RematchOf(TableChoice{Table: long, Game: "pick", Players: 3, Config: []byte{1}})
	if err := CheckTable(got, 0); err != nil || !strings.HasSuffix(got.Table, "é #2") {
		t.Errorf("RematchOf(%d bytes) = %q: %v", len(long), got.Table, err)
	}
}

// TestRematch: the results offer a rematch once a game is finished, never before, nor after an
// abandoned game; the person asks once, the command reads the next table from Rematches and
// seats the person there with NewTable, which starts the page again.
func TestRematch(t *testing.T) {
	h := NewHuman(nil)
	s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Human: h, Key: testKey, Rematch: true})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	c := TableChoice{Table: "friday", Game: "pick", Players: 3, Config: []byte{0}}
	s.SetTable(c)
	names := []string{"ann", "bob", "cy"}
	s.Update(protocol.Status{Table: "friday", Seat: 0, Names: names, State: newPick(3, 1), Due: 1})
	s.Event(engine.Event{Text: "seat 0 picks 3", Data: pickEvent{0, 3}})
	var st State
	var e apiError
	if code := call(t, ts, "POST", "/api/rematch", testKey, "{}", &e); code != http.StatusConflict || e.Error == "" {
		t.Errorf("a rematch during the game: %d %q, want 409 with the reason", code, e.Error)
	}
	// An abandoned game offers none.
	s.Finish(Result{Outcome: &protocol.Outcome{Scores: []int{0, 0, 0}, Verdict: &protocol.Verdict{Kind: protocol.VerdictAbandoned, Seat: 2}}})
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Rematch != "" {
		t.Errorf("an abandoned game offers a rematch at %q", st.Rematch)
	}
	s.Finish(Result{Outcome: &protocol.Outcome{Finished: true, Scores: []int{5, 0, 0}, Winners: []int{0}}})
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Mode != "over" || st.Rematch != "friday #2" || st.TableGen != 0 {
		t.Fatalf("a finished game: mode %q, rematch %q, table_gen %d; want over, friday #2, 0", st.Mode, st.Rematch, st.TableGen)
	}
	var ok struct {
		Table string `json:"table"`
	}
	if code := call(t, ts, "POST", "/api/rematch", testKey, "{}", &ok); code != http.StatusOK || ok.Table != "friday #2" {
		t.Fatalf("rematch: %d %+v", code, ok)
	}
	if code := call(t, ts, "POST", "/api/rematch", testKey, "{}", nil); code != http.StatusConflict {
		t.Errorf("a second rematch of the same table: %d, want 409", code)
	}
	var next TableChoice
	select {
	case next = <-s.Rematches():
	default:
		t.Fatal("Rematches delivers nothing after POST /api/rematch")
	}
	if next.Table != "friday #2" || next.Players != 3 || next.Game != "pick" {
		t.Errorf("the rematch: %+v", next)
	}
	s.NewTable(next)
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Mode != "waiting" || st.Table == nil || st.Table.Name != "friday #2" || st.TableGen != 1 || st.Result != nil ||
		len(st.Log) != 0 || st.Rematch != "" || st.Me.Seat != -1 {
		t.Errorf("after NewTable: mode %q table %+v gen %d result %+v log %d rematch %q seat %d",
			st.Mode, st.Table, st.TableGen, st.Result, len(st.Log), st.Rematch, st.Me.Seat)
	}
	// The next table's end offers the one after.
	s.Update(protocol.Status{Table: "friday #2", Seat: 0, Names: names, State: newPick(3, 1), Due: 1})
	s.Finish(Result{Outcome: &protocol.Outcome{Finished: true, Scores: []int{5, 0, 0}, Winners: []int{0}}})
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Rematch != "friday #3" {
		t.Errorf("after the rematch's end: rematch %q, want friday #3", st.Rematch)
	}
	// Without Config.Rematch, none is offered.
	s2, _, ts2 := newServer(t, 0)
	s2.SetTable(c)
	s2.Finish(Result{Outcome: &protocol.Outcome{Finished: true, Scores: []int{5, 0, 0}, Winners: []int{0}}})
	st = State{}
	call(t, ts2, "GET", "/api/state", testKey, "", &st)
	if code := call(t, ts2, "POST", "/api/rematch", testKey, "{}", nil); st.Rematch != "" || code != http.StatusConflict {
		t.Errorf("without Config.Rematch: offered %q, POST %d", st.Rematch, code)
	}
}

// TestRematchWithout: after a table a cheater ended, or a game the table played on without one
// (protocol/convict.go), the results offer to play again without the cheater, whom the next
// table's node refuses (Exclude), named on the page; not to the cheater, nor when too few would
// stay.
func TestRematchWithout(t *testing.T) {
	names := []string{"ann", "bob", "cy", "dan"}
	keys := make([]ed25519.PublicKey, len(names))
	for i := range keys {
		keys[i] = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(i + 1)}, 32)).Public().(ed25519.PublicKey)
	}
	for _, tc := range []struct {
		name    string
		seat    int // the person's
		players int
		out     *protocol.Outcome
		without []string // nil: no offer
	}{
		{"halted on a cheat", 0, 4, &protocol.Outcome{Scores: []int{0, 0, 0, 0}, Verdict: &protocol.Verdict{Kind: protocol.VerdictCheat, Seat: 2}}, []string{"cy"}},
		{"halted on an equivocation", 0, 4, &protocol.Outcome{Scores: []int{0, 0, 0, 0}, Verdict: &protocol.Verdict{Kind: protocol.VerdictEquivocation, Seat: 1}}, []string{"bob"}},
		{"played on without the cheater", 1, 4, &protocol.Outcome{Finished: true, Scores: []int{1, 2, 3, 4}, Winners: []int{3}, Open: []int{3}, Convicted: []protocol.Conviction{{Seat: 3, Seq: 30}}}, []string{"dan"}},
		{"the cheater's own page", 2, 4, &protocol.Outcome{Scores: []int{0, 0, 0, 0}, Verdict: &protocol.Verdict{Kind: protocol.VerdictCheat, Seat: 2}}, nil},
		{"too few would stay", 0, 2, &protocol.Outcome{Scores: []int{0, 0}, Verdict: &protocol.Verdict{Kind: protocol.VerdictCheat, Seat: 1}}, nil},
		{"abandoned", 0, 4, &protocol.Outcome{Scores: []int{0, 0, 0, 0}, Verdict: &protocol.Verdict{Kind: protocol.VerdictAbandoned, Seat: 1}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Human: NewHuman(nil), Key: testKey, Rematch: true})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(s.Handler())
			t.Cleanup(func() {
				s.Close()
				ts.Close()
			})
			s.SetTable(TableChoice{Table: "friday", Game: "pick", Players: tc.players, Config: []byte{0}})
			s.Update(protocol.Status{Table: "friday", Seat: tc.seat, Names: names[:tc.players], Keys: keys[:tc.players], State: newPick(tc.players, 1), Due: 1})
			s.Finish(Result{Outcome: tc.out})
			var st State
			call(t, ts, "GET", "/api/state", testKey, "", &st)
			if tc.without == nil {
				if st.Rematch != "" {
					t.Fatalf("offered a rematch at %q without %v", st.Rematch, st.Without)
				}
				return
			}
			if st.Rematch != "friday #2" || !slices.Equal(st.Without, tc.without) {
				t.Fatalf("rematch %q without %v; want friday #2 without %v", st.Rematch, st.Without, tc.without)
			}
			if code := call(t, ts, "POST", "/api/rematch", testKey, "{}", nil); code != http.StatusOK {
				t.Fatalf("rematch: %d", code)
			}
			next := <-s.Rematches()
			if next.Players != tc.players-1 || len(next.Exclude) != 1 {
				t.Fatalf("the rematch: %d players, excluding %x", next.Players, next.Exclude)
			}
			for seat, k := range keys {
				if k.Equal(next.Exclude[0]) && names[seat] != tc.without[0] {
					t.Fatalf("the rematch excludes %s's key, not %s's", names[seat], tc.without[0])
				}
			}
		})
	}
}
