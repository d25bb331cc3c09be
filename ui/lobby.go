package ui

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"corruption/engine/corruption"
	"corruption/protocol"
)

// LobbyTTL is how long a player announced on the lobby stays listed without announcing again
// (a node waiting for its table announces itself every tick, a quarter of a second).
const LobbyTTL = 5 * time.Second

// TableChoice is a table to sit at, with its settings.
type TableChoice struct {
	Table   string
	Players int
	Variant corruption.Variant
	LBB     bool
}

func (c TableChoice) String() string {
	s := fmt.Sprintf("%q (%d players, %s", c.Table, c.Players, c.Variant)
	if c.LBB {
		s += ", little black book"
	}
	return s + ")"
}

// CheckTable checks a table's settings as the command line does: a name of 1 to
// protocol.MaxNameSize bytes without slashes, 3 to 7 players, no little black book with the
// closed variant, and room for the person and its local bots.
func CheckTable(c TableChoice, bots int) error {
	if c.Table == "" || len(c.Table) > protocol.MaxNameSize || strings.ContainsAny(c.Table, "/\\") || c.Table == "." || c.Table == ".." {
		return fmt.Errorf("%q is not a table name (1 to %d characters, no slashes)", c.Table, protocol.MaxNameSize)
	}
	if c.Players < corruption.MinPlayers || c.Players > corruption.MaxPlayers {
		return fmt.Errorf("players: %d, want %d to %d", c.Players, corruption.MinPlayers, corruption.MaxPlayers)
	}
	if c.LBB && c.Variant == corruption.Closed {
		return errors.New("the little black book cannot be played with the closed variant")
	}
	if 1+bots > c.Players {
		return fmt.Errorf("a table of %d players has no room for you and your %d bots", c.Players, bots)
	}
	return nil
}

// LobbyState is the lobby as the page shows it.
type LobbyState struct {
	Tables   []LobbyTable `json:"tables"`
	Bots     int          `json:"bots"` // local bots that will sit with the person
	Defaults LobbyForm    `json:"defaults"`
	Variants []string     `json:"variants"`
}

// LobbyForm is a table's settings as the page sends and shows them.
type LobbyForm struct {
	Table   string `json:"table"`
	Players int    `json:"players"`
	Variant string `json:"variant"`
	LBB     bool   `json:"lbb"`
}

func (f LobbyForm) choice() (TableChoice, error) {
	v, err := corruption.ParseVariant(f.Variant)
	if err != nil {
		return TableChoice{}, err
	}
	return TableChoice{Table: strings.TrimSpace(f.Table), Players: f.Players, Variant: v, LBB: f.LBB}, nil
}

// LobbyTable is an open table heard on the lobby.
type LobbyTable struct {
	LobbyForm
	Seated []string `json:"seated"` // the names of the players waiting at it
	Full   bool     `json:"full"`
	Room   bool     `json:"room"` // there is room for the person and its bots
}

// lobby gathers announcements: by table settings, the players heard and when.
type lobby struct {
	heard map[lobbyKey]map[string]heardPlayer
}

type lobbyKey struct {
	table   string
	players int
	variant corruption.Variant
	lbb     bool
}

type heardPlayer struct {
	name string
	at   time.Time
}

// add records an announcement; it reports whether the listing changed.
func (l *lobby) add(a *protocol.Announcement, now time.Time) bool {
	if l.heard == nil {
		l.heard = map[lobbyKey]map[string]heardPlayer{}
	}
	k := lobbyKey{a.Table, a.Players, a.Variant, a.LBB}
	ps := l.heard[k]
	if ps == nil {
		ps = map[string]heardPlayer{}
		l.heard[k] = ps
	}
	key := string(a.Key)
	old, had := ps[key]
	ps[key] = heardPlayer{name: a.Name, at: now}
	return !had || old.name != a.Name
}

// prune forgets players not heard for LobbyTTL; it reports whether the listing changed.
func (l *lobby) prune(now time.Time) bool {
	changed := false
	for k, ps := range l.heard {
		for key, p := range ps {
			if now.Sub(p.at) > LobbyTTL {
				delete(ps, key)
				changed = true
			}
		}
		if len(ps) == 0 {
			delete(l.heard, k)
		}
	}
	return changed
}

// find returns the listed table named name (with the settings of c, when c has any) and how
// many players wait at it.
func (l *lobby) find(name string, c *TableChoice) (TableChoice, int, bool) {
	for k, ps := range l.heard {
		if k.table != name || len(ps) == 0 {
			continue
		}
		if c != nil && (c.Players != k.players || c.Variant != k.variant || c.LBB != k.lbb) {
			continue
		}
		return TableChoice{Table: k.table, Players: k.players, Variant: k.variant, LBB: k.lbb}, len(ps), true
	}
	return TableChoice{}, 0, false
}

func (l *lobby) list(bots int) []LobbyTable {
	out := []LobbyTable{}
	for k, ps := range l.heard {
		t := LobbyTable{LobbyForm: LobbyForm{Table: k.table, Players: k.players, Variant: k.variant.String(), LBB: k.lbb}, Seated: []string{}}
		for _, p := range ps {
			t.Seated = append(t.Seated, p.name)
		}
		sort.Strings(t.Seated)
		t.Full = len(ps) >= k.players
		t.Room = len(ps)+1+bots <= k.players
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Table != out[j].Table {
			return out[i].Table < out[j].Table
		}
		return out[i].Players < out[j].Players
	})
	return out
}

// ReadLobby reads lobby messages with next (the lobby topic of the person's network node)
// until it fails or ctx ends, and lists the tables they announce. Messages that are not valid
// announcements, and the person's own (self), are skipped.
func (s *Server) ReadLobby(ctx context.Context, self ed25519.PublicKey, next func(context.Context) ([]byte, error)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				s.mu.Lock()
				changed := s.lobby.prune(now)
				s.mu.Unlock()
				if changed {
					s.changed()
				}
			}
		}
	}()
	for {
		msg, err := next(ctx)
		if err != nil {
			return
		}
		a, err := protocol.ParseAnnouncement(msg)
		if err != nil || slices.Equal(a.Key, self) {
			continue
		}
		s.Announce(a)
	}
}

// Announce lists a table announced on the lobby.
func (s *Server) Announce(a *protocol.Announcement) {
	s.mu.Lock()
	changed := s.lobby.add(a, s.now())
	s.mu.Unlock()
	if changed {
		s.changed()
	}
}
