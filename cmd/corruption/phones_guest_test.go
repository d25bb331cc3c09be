package main

import (
	"context"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestGuestPhoneAtTheLaptop (the third outside review, high): at `corruption host`, a guest
// phone that holds the token serves the laptop's own services (the seat, the bots) and the
// table protocol, answering every request at once, and came before the honest phone. The
// honest phone asks the laptop for a seat and for bots, and plays a whole table with the
// host's bots while some of its entries never reach them by gossip (they must fetch them
// from the laptop); both phones' connections drop twice in the game. The honest phone gets
// the laptop's answers, never the guest's; the bots fetch the honest phone's entries through
// the laptop from the honest phone; the guest is never asked.
func TestGuestPhoneAtTheLaptop(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes: the test command runs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), phoneTableTimeout)
	defer cancel()
	host := start(ctx, t, "host", "host", "--phones-addr", "127.0.0.1:0", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--timeout", "30s")
	page := host.waitLine(t, phoneLine, 30*time.Second)[1]
	guestAir, honestAir := newWifi(t, page), newWifi(t, page)
	guest := newNativePhone(t, "guest", guestAir.url)
	var guestAsked atomic.Int32
	trap, _ := json.Marshal(tablenet.Wish{Table: "the-guests-table", Game: "corruption", Players: 3, Bots: 2, Escrow: true})
	guest.client.Handle(tablenet.SeatProto, func(string, []byte) ([]byte, error) { guestAsked.Add(1); return trap, nil })
	guest.client.Handle(tablenet.BotsProto, func(string, []byte) ([]byte, error) { guestAsked.Add(1); return trap, nil })
	guest.client.Handle(tablenet.EntriesProto, func(string, []byte) ([]byte, error) {
		guestAsked.Add(1)
		return []byte{0, 0}, nil // "no entries": an answer, not an error
	})

	honest := newNativePhone(t, "honest", honestAir.url)
	if _, err := tablenet.AskSeat(ctx, honest.client, honest.pub()); !errors.Is(err, tablenet.ErrNoSeat) {
		t.Errorf("the honest phone asked the laptop for a seat: %v, want the laptop's no seat", err)
	}
	w, err := tablenet.AskBots(ctx, honest.client, tablenet.Wish{Table: "honest-" + tableName(t), Game: "corruption", Players: 3,
		Config: defaultConfig(t, "corruption"), Bots: 2, Escrow: true})
	if err != nil {
		t.Fatal(err)
	}
	if w.Table == "the-guests-table" || w.Escrow {
		t.Fatalf("the honest phone's bots: %+v, want the laptop's answer (no escrow: its bots hold every other seat)", w)
	}
	host.waitLine(t, regexp.MustCompile(`2 bots sit at table "honest-`), 10*time.Second)
	// The honest phone's entries from its 10th on reach the bots by gossip one in two: they
	// fetch the others from the laptop, which must send them to the honest phone.
	var dropped, served atomic.Int32
	honest.wrap = func(n protocol.Network) protocol.Network {
		return &lossyNet{Network: n, dropped: &dropped, served: &served}
	}
	var once sync.Once
	out, rep, err := honest.sit(ctx, t, w, func(st protocol.Status) {
		if st.Entries >= 20 {
			once.Do(func() {
				go func() { // both phones' Wi-Fi drops, twice
					for range 2 {
						guestAir.drop()
						honestAir.drop()
						guestAir.restore()
						honestAir.restore()
					}
				}()
			})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Finished || !rep.Valid {
		t.Fatalf("the honest phone's table: finished %v; audit %+v", out.Finished, rep)
	}
	if n := guestAsked.Load(); n != 0 {
		t.Errorf("the guest phone was asked %d times, in the laptop's place or the honest phone's", n)
	}
	if dropped.Load() == 0 || served.Load() == 0 {
		t.Errorf("%d entries of the honest phone kept from gossip, %d requests for entries it served: want the bots to fetch from it through the laptop", dropped.Load(), served.Load())
	}
	if guest.dials.Load() < 2 || honest.dials.Load() < 2 {
		t.Errorf("the phones connected %d and %d times, want again after the drops", guest.dials.Load(), honest.dials.Load())
	}
}

// lossyNet keeps one in two of the node's entries past its 10th from gossip, and counts the
// requests the node serves.
type lossyNet struct {
	protocol.Network
	n               int
	dropped, served *atomic.Int32
}

func (l *lossyNet) Serve(h func(from string, req []byte) ([]byte, error)) {
	if h == nil {
		l.Network.Serve(nil)
		return
	}
	l.Network.Serve(func(from string, req []byte) ([]byte, error) {
		l.served.Add(1)
		return h(from, req)
	})
}

func (l *lossyNet) Publish(ctx context.Context, data []byte) error {
	if len(data) > 0 && data[0] == 'e' {
		if l.n++; l.n > 10 && l.n%2 == 0 {
			l.dropped.Add(1)
			return nil
		}
	}
	return l.Network.Publish(ctx, data)
}

// Seated passes the genesis on (the bridge's Network proves the seat with it).
func (l *lossyNet) Seated(genesis []byte) {
	if s, ok := l.Network.(protocol.Seater); ok {
		s.Seated(genesis)
	}
}

// TestLaptopPersonCountsWithItsBots (the third outside review, low): under `play --phones`,
// the person's seat counts with the laptop's bots: this machine may not hold every seat but a
// phone's at a table that escrows, in either order. The person sits at a table of 3 first, and
// a phone asks for 1 bot there: refused. A phone creates a table of 3 with 1 bot of the
// laptop first, and the person creates or joins it from the lobby: refused, in the page's
// words.
func TestLaptopPersonCountsWithItsBots(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes: the test command runs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	config := defaultConfig(t, "corruption")
	t.Run("person first", func(t *testing.T) {
		table := "personfirst-" + tableName(t)
		p := start(ctx, t, "play", "play", "--name", "ann", "--phones", "--phones-addr", "127.0.0.1:0", "--table", table,
			"--players", "3", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open")
		page := p.waitLine(t, phoneLine, 20*time.Second)[1]
		p.waitLine(t, regexp.MustCompile(`sitting at table`), 20*time.Second)
		phone := newNativePhone(t, "phone", page)
		_, err := tablenet.AskBots(ctx, phone.client, tablenet.Wish{Table: table, Game: "corruption", Players: 3, Config: config, Bots: 1, Escrow: true})
		if err == nil || !strings.Contains(err.Error(), "could read your cards") {
			t.Errorf("a phone asked for 1 bot at the person's table of 3: %v, want a refusal", err)
		}
		w, err := tablenet.AskBots(ctx, phone.client, tablenet.Wish{Table: "other-" + table, Game: "corruption", Players: 3, Config: config, Bots: 1, Escrow: true})
		if err != nil || !w.Escrow {
			t.Errorf("1 bot at another table of 3: %+v, %v; want it, with escrow", w, err)
		}
	})
	t.Run("phone first", func(t *testing.T) {
		table := "phonefirst-" + tableName(t)
		p := start(ctx, t, "play", "play", "--name", "ann", "--phones", "--phones-addr", "127.0.0.1:0",
			"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open")
		api := newAPIClient(t, p.waitLine(t, openLine, 20*time.Second)[1])
		page := p.waitLine(t, phoneLine, 20*time.Second)[1]
		phone := newNativePhone(t, "phone", page)
		if _, err := tablenet.AskBots(ctx, phone.client, tablenet.Wish{Table: table, Game: "corruption", Players: 3, Config: config, Bots: 1, Escrow: true}); err != nil {
			t.Fatal(err)
		}
		code, body := api.post(t, "/api/lobby/create?lang=en", map[string]any{"game": "corruption", "table": table, "players": 3, "bots": 0, "variant": "standard"})
		if code != http.StatusConflict || !strings.Contains(body, "could read its cards") {
			t.Errorf("the person created the phone's table: %d %s, want 409 and the reason", code, body)
		}
		code, body = api.post(t, "/api/lobby/create?lang=fr", map[string]any{"game": "corruption", "table": table, "players": 3, "bots": 0, "variant": "standard"})
		if code != http.StatusConflict || !strings.Contains(body, "pourrait lire ses cartes") {
			t.Errorf("in French: %d %s", code, body)
		}
		// Once the lobby has heard the bot's table, creating it and joining it are refused the same way.
		api.waitLobby(ctx, t, table)
		for _, path := range []string{"/api/lobby/create", "/api/lobby/join"} {
			code, body := api.post(t, path, map[string]any{"game": "corruption", "table": table, "players": 3, "bots": 0, "variant": "standard"})
			if code != http.StatusConflict || !strings.Contains(body, "could read its cards") {
				t.Errorf("%s of the phone's table, heard in the lobby: %d %s, want 409 and the reason", path, code, body)
			}
		}
		if code, body := api.post(t, "/api/lobby/create", map[string]any{"game": "corruption", "table": "mine-" + table, "players": 3, "bots": 0, "variant": "standard"}); code != http.StatusOK {
			t.Errorf("the person created a table of its own: %d %s", code, body)
		}
	})
}
