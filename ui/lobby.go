package ui

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"corruption/engine"
	"corruption/protocol"
)

// lobbyTTL is how long a player announced on the lobby stays listed without announcing again
// (a node waiting for its table announces itself every tick, a quarter of a second).
const lobbyTTL = 5 * time.Second

// TableChoice is a table to sit at, with its game and settings.
type TableChoice struct {
	Table   string
	Game    string // the game's id
	Players int
	Config  []byte // the game's canonical configuration
	// Bots is how many bots of the person's machine the command seats at the table with the
	// person (--bots, or the lobby's form); the other seats are other players'.
	Bots int
	// Level is how well those bots play, one of Config.Levels ("": the command's default,
	// --level).
	Level string
	// Exclude are players the table is played without: the cheaters of the last one, at a
	// rematch the person asked for without them (protocol.NodeConfig.Exclude).
	Exclude []ed25519.PublicKey
}

func (c TableChoice) String() string {
	settings := fmt.Sprintf("configuration %x", c.Config)
	if r, err := engine.Lookup(c.Game); err == nil {
		settings = r.DescribeConfig(c.Config)
	}
	return fmt.Sprintf("%q (%d players, %s)", c.Table, c.Players, settings)
}

// CheckTable checks a table's settings as the command line does: a name of 1 to
// protocol.MaxNameSize bytes without slashes that protocol.CheckName accepts, a game this build
// knows, a number of players it is played by, a configuration it accepts, and room for the
// person and bots local bots (0 or more).
func CheckTable(c TableChoice, bots int) error {
	if err := protocol.CheckTableName(c.Table); err != nil {
		return err
	}
	rules, err := engine.Lookup(c.Game)
	if err != nil {
		return err
	}
	if lo, hi := rules.Players(); c.Players < lo || c.Players > hi {
		return fmt.Errorf("players: %d, want %d to %d", c.Players, lo, hi)
	}
	if err := rules.CheckConfig(c.Config, c.Players); err != nil {
		return err
	}
	if bots < 0 {
		return fmt.Errorf("bots: %d, want 0 or more", bots)
	}
	if 1+bots > c.Players {
		return fmt.Errorf("a table of %d players has no room for you and your %d bots", c.Players, bots)
	}
	return nil
}

// LobbyState is the lobby as the page shows it: the tables of every game the page plays, and
// the form to create one, a game at a time; each game's board adds what its form offers.
type LobbyState struct {
	Tables []LobbyTable `json:"tables"`
	// Bots is how many local bots the form seats by default, and how many come along to a
	// table the person joins.
	Bots     int         `json:"bots"`
	Game     string      `json:"game"`     // the game the form shows first (--game)
	Games    []LobbyGame `json:"games"`    // every game the form may create a table of
	Defaults LobbyForm   `json:"defaults"` // the form's table name and players
	Private  bool        `json:"private"`  // the page may join a private table by its code
	Joining  bool        `json:"joining"`  // the node is joining one now (Join says how it goes)
	Join     *JoinState  `json:"join,omitempty"`
	// Escrow is the fewest seats at which a table the node creates escrows its seats' secrets
	// (0: never): the form tells the promise that makes (depart.go).
	Escrow int `json:"escrow"`
	// Levels are the bots' levels the form offers, easiest first (none: no choice), and Level
	// the one it starts from.
	Levels []string `json:"levels"`
	Level  string   `json:"level"`
}

// LobbyGame is a game the lobby's form offers: its table sizes, the settings the form starts
// from and, from its board, what the form may choose among (the board's LobbyChoices).
type LobbyGame struct {
	Game       string `json:"game"`
	MinPlayers int    `json:"min_players"`
	MaxPlayers int    `json:"max_players"`
	Defaults   any    `json:"defaults"` // the board's ShowSettings
	Choices    any    `json:"-"`        // the board's LobbyChoices
}

// MarshalJSON writes the game with its board's choices.
func (g LobbyGame) MarshalJSON() ([]byte, error) {
	type plain LobbyGame
	return joinFields(plain(g), g.Choices)
}

// LobbyForm is a table's settings as the page shows them; the page posts the same fields.
type LobbyForm struct {
	Table    string `json:"table"`
	Players  int    `json:"players"`
	Settings any    `json:"-"` // the board's ShowSettings
}

// MarshalJSON writes the form with the settings' fields.
func (f LobbyForm) MarshalJSON() ([]byte, error) {
	type plain LobbyForm
	return joinFields(plain(f), f.Settings)
}

// LobbyTable is an open table heard on the lobby.
type LobbyTable struct {
	Game     string   `json:"game"` // the game's id
	Table    string   `json:"table"`
	Players  int      `json:"players"`
	Seated   []string `json:"seated"` // the names of the players waiting at it, isolated (names.go)
	Full     bool     `json:"full"`
	Room     bool     `json:"room"` // there is room for the person and its bots
	Settings any      `json:"-"`    // its game's board's ShowSettings
}

// MarshalJSON writes the table with its settings' fields.
func (t LobbyTable) MarshalJSON() ([]byte, error) {
	type plain LobbyTable
	return joinFields(plain(t), t.Settings)
}

// readForm reads a table the page posts: its game (def when it names none), name, players,
// bots (bots when it says none), their level (one of levels; "" when it says none) and,
// through the game's board (boardOf, in the page's language), settings. A form with no players
// names a table alone (join by name): its Config is nil, and its Game "" when it names none
// (any game's table).
func readForm(raw json.RawMessage, boardOf func(game string) Board, def string, bots int, levels []string) (TableChoice, error) {
	var f struct {
		Game    string `json:"game"`
		Table   string `json:"table"`
		Players int    `json:"players"`
		Bots    *int   `json:"bots"`
		Level   string `json:"level"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return TableChoice{}, fmt.Errorf("the table is not valid JSON: %v", err)
	}
	if f.Bots != nil {
		bots = *f.Bots
	}
	if f.Level != "" && !slices.Contains(levels, f.Level) {
		return TableChoice{}, fmt.Errorf("the bots' level %q is not one of %s", f.Level, strings.Join(levels, ", "))
	}
	c := TableChoice{Table: strings.TrimSpace(f.Table), Game: f.Game, Players: f.Players, Bots: bots, Level: f.Level}
	if f.Players == 0 {
		return c, nil
	}
	if c.Game == "" {
		c.Game = def
	}
	b := boardOf(c.Game)
	if b == nil {
		return c, fmt.Errorf("this page plays no game %q", c.Game)
	}
	config, err := b.ParseSettings(raw)
	if err != nil {
		return c, err
	}
	c.Config = config
	return c, nil
}

// lobby gathers announcements of tables: by game and table settings, the players heard and
// when.
type lobby struct {
	heard map[lobbyKey]map[string]heardPlayer
}

type lobbyKey struct {
	game    string
	table   string
	players int
	config  string
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
	k := lobbyKey{a.Game, a.Table, a.Players, string(a.Config)}
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

// prune forgets players not heard for lobbyTTL; it reports whether the listing changed.
func (l *lobby) prune(now time.Time) bool {
	changed := false
	for k, ps := range l.heard {
		for key, p := range ps {
			if now.Sub(p.at) > lobbyTTL {
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

// find returns the listed table of game named name (any game's when game is ""; with the
// settings of c, when c has any) and how many players wait at it.
func (l *lobby) find(game, name string, c *TableChoice) (TableChoice, int, bool) {
	for k, ps := range l.heard {
		if k.table != name || len(ps) == 0 || (game != "" && k.game != game) {
			continue
		}
		if c != nil && (c.Players != k.players || string(c.Config) != k.config) {
			continue
		}
		return TableChoice{Table: k.table, Game: k.game, Players: k.players, Config: []byte(k.config)}, len(ps), true
	}
	return TableChoice{}, 0, false
}

// list is the tables heard, their settings shown by show (their game's board's ShowSettings).
func (l *lobby) list(bots int, show func(game string, config []byte) any) []LobbyTable {
	out := []LobbyTable{}
	for k, ps := range l.heard {
		t := LobbyTable{Game: k.game, Table: k.table, Players: k.players, Settings: show(k.game, []byte(k.config)), Seated: []string{}}
		for _, p := range ps {
			t.Seated = append(t.Seated, p.name)
		}
		sort.Strings(t.Seated)
		t.Seated = isolateAll(distinct(t.Seated)) // names as the page shows them (names.go)
		t.Full = len(ps) >= k.players
		t.Room = len(ps)+1+bots <= k.players
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Table != out[j].Table {
			return out[i].Table < out[j].Table
		}
		if out[i].Game != out[j].Game {
			return out[i].Game < out[j].Game
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
			case <-t.C:
				s.mu.Lock()
				changed := s.lobby.prune(s.now())
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

// Announce lists a table announced on the lobby, if it is of a game the page has a board of
// and of this release's protocol (a table of another game, or of another release, cannot be
// joined from this page).
func (s *Server) Announce(a *protocol.Announcement) {
	if s.boards[a.Game] == nil || (a.Version != 0 && a.Version != protocol.EntryVersion) {
		return
	}
	s.mu.Lock()
	changed := s.lobby.add(a, s.now())
	s.mu.Unlock()
	if changed {
		s.changed()
	}
}

// defaultTable is the table name the lobby proposes to a person of that name: "ann's table",
// the name cut (at a character) so that it stays a table name.
func defaultTable(name string) string {
	const suffix = "'s table"
	for len(name)+len(suffix) > protocol.MaxNameSize {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" {
		return "table"
	}
	return name + suffix
}

// lobbyState is the lobby in lang: every game's form and the tables heard. s.mu is held.
func (s *Server) lobbyState(lang string) *LobbyState {
	d := s.cfg.Defaults
	if d.Table == "" {
		d.Table = defaultTable(s.cfg.Name)
	}
	show := func(game string, config []byte) any { return Localize(s.boards[game], lang).ShowSettings(config) }
	l := &LobbyState{Tables: s.lobby.list(s.cfg.Bots, show), Bots: s.cfg.Bots, Game: s.board.Game(),
		Defaults: LobbyForm{Table: d.Table, Players: d.Players}, Private: s.cfg.JoinPrivate != nil, Escrow: s.escrowSeats(),
		Levels: s.cfg.Levels, Level: s.cfg.Level}
	for _, id := range s.games {
		b := Localize(s.boards[id], lang)
		g := LobbyGame{Game: id, Defaults: b.ShowSettings(nil), Choices: b.LobbyChoices()}
		if id == d.Game {
			g.Defaults = b.ShowSettings(d.Config)
		}
		if r, err := engine.Lookup(id); err == nil {
			g.MinPlayers, g.MaxPlayers = r.Players()
		}
		l.Games = append(l.Games, g)
	}
	if j := s.joining; j != nil {
		l.Joining, l.Join = true, j.state(lang, s.cfg.JoinLimit)
	}
	return l
}
