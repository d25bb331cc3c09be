package ui

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"testing/fstest"

	"corruption/engine"
)

// A game and a board that exist only in these tests, so that the shell is tested without any
// real game: "pick", where the seats in turn pick a number from 1 to 3, twice each, and the
// highest total wins. Its configuration is one byte, the speed (0 slow, 1 fast).

func init() { engine.Register(pickRules{}) }

type pickRules struct{}

func (pickRules) ID() string              { return "pick" }
func (pickRules) Name() string            { return "Pick" }
func (pickRules) Players() (min, max int) { return 2, 4 }
func (pickRules) CheckConfig(config []byte, players int) error {
	if len(config) != 1 || config[0] > 1 {
		return fmt.Errorf("config %x is not one speed byte", config)
	}
	return nil
}
func (pickRules) DescribeConfig(config []byte) string {
	if len(config) == 1 && config[0] == 1 {
		return "fast"
	}
	return "slow"
}
func (pickRules) New(config []byte, players int, opt engine.Options) (engine.Game, error) {
	return &pickGame{players: players, onEvent: opt.OnEvent}, nil
}

type pickEvent struct{ Seat, N int }

type pickGame struct {
	players int
	picks   []int
	onEvent func(engine.Event)
}

func (g *pickGame) Due() engine.Step {
	if len(g.picks) >= 2*g.players {
		return engine.Step{Kind: engine.StepOver}
	}
	return engine.Step{Kind: engine.StepMove, Seat: len(g.picks) % g.players}
}

func (g *pickGame) Apply(in engine.Input) error {
	st := g.Due()
	if st.Kind != engine.StepMove || in.Kind != engine.InMove || in.Seat != st.Seat {
		return fmt.Errorf("pick: the game waits for %v", st)
	}
	if len(in.Move) != 1 || in.Move[0] < 1 || in.Move[0] > 3 {
		return engine.Faultf(in.Seat, "seat %d picks %v", in.Seat, in.Move)
	}
	g.picks = append(g.picks, int(in.Move[0]))
	if g.onEvent != nil {
		g.onEvent(engine.Event{Text: fmt.Sprintf("seat %d picks %d", in.Seat, in.Move[0]), Data: pickEvent{in.Seat, int(in.Move[0])}})
	}
	return nil
}

func (g *pickGame) LearnValue(ref int, value []byte) error { return errors.New("pick hides nothing") }
func (g *pickGame) LearnCard(deck, pos, card int) error    { return errors.New("pick deals nothing") }
func (g *pickGame) Digest() [32]byte                       { return sha256.Sum256([]byte(fmt.Sprint(g.picks))) }

func (g *pickGame) scores() []int {
	s := make([]int, g.players)
	for i, n := range g.picks {
		s[i%g.players] += n
	}
	return s
}

func (g *pickGame) Outcome() engine.Outcome {
	if g.Due().Kind != engine.StepOver {
		return engine.Outcome{}
	}
	s := g.scores()
	best, winners := -1, []int{}
	for seat, v := range s {
		switch {
		case v > best:
			best, winners = v, []int{seat}
		case v == best:
			winners = append(winners, seat)
		}
	}
	return engine.Outcome{Over: true, Scores: s, Winners: winners}
}

func (g *pickGame) Clone() engine.Game {
	c := *g
	c.picks = append([]int(nil), g.picks...)
	c.onEvent = nil
	return &c
}

// pickBoard is the pick game's board, for the page and the terminal.
type pickBoard struct{}

const pickScript = "export const title = 'Pick';\n"

func (pickBoard) Game() string { return "pick" }
func (pickBoard) Assets() fs.FS {
	return fstest.MapFS{"board.js": {Data: []byte(pickScript)}, "board.css": {Data: []byte("/* pick */\n")}}
}

type pickSettings struct {
	Speed string `json:"speed"`
}

func (pickBoard) ParseSettings(form json.RawMessage) ([]byte, error) {
	var s pickSettings
	if err := json.Unmarshal(form, &s); err != nil {
		return nil, err
	}
	switch s.Speed {
	case "slow":
		return []byte{0}, nil
	case "fast":
		return []byte{1}, nil
	}
	return nil, fmt.Errorf("unknown speed %q", s.Speed)
}

func (pickBoard) ShowSettings(config []byte) any {
	if len(config) == 1 && config[0] == 1 {
		return pickSettings{"fast"}
	}
	return pickSettings{"slow"}
}

func (pickBoard) LobbyChoices() any {
	return map[string][]string{"speeds": {"slow", "fast"}}
}

type pickSeat struct {
	Total int `json:"total"`
}

func (pickBoard) Draw(g engine.Game, seat int, names []string) Drawing {
	pg, ok := g.(*pickGame)
	seats := make([]any, len(names))
	for i := range seats {
		seats[i] = pickSeat{}
	}
	if !ok {
		return Drawing{Seats: seats}
	}
	for i, v := range pg.scores() {
		seats[i] = pickSeat{v}
	}
	return Drawing{Started: true, Game: map[string][]int{"picks": pg.picks}, Seats: seats}
}

func (pickBoard) Decision(g engine.Game, seat int, names []string) any {
	return map[string]any{"kind": "pick", "choices": []int{1, 2, 3}}
}

type pickMove struct{ n int }

func (m pickMove) Action(g engine.Game, seat int) (engine.Action, error) {
	if st := g.Due(); st.Kind != engine.StepMove || st.Seat != seat {
		return engine.Action{}, ErrNotAsked
	}
	if m.n > 3 {
		return engine.Action{}, fmt.Errorf("%d is more than 3", m.n)
	}
	return engine.Action{Move: []byte{byte(m.n)}}, nil
}

func (pickBoard) ParseMove(req json.RawMessage) (Move, error) {
	var r struct {
		N int `json:"n"`
	}
	if err := json.Unmarshal(req, &r); err != nil {
		return nil, err
	}
	if r.N < 1 {
		return nil, errors.New("pick a number")
	}
	return pickMove{r.N}, nil
}

func (pickBoard) Tell(e engine.Event, names []string, me int) LogLine {
	pe, ok := e.Data.(pickEvent)
	if !ok {
		return LogLine{Kind: "event", Text: e.Text}
	}
	who := SeatName(names, pe.Seat)
	if pe.Seat == me {
		who = "you"
	}
	return LogLine{Round: 1, Kind: "pick", Text: fmt.Sprintf("%s: %d", who, pe.N)}
}

func (pickBoard) Notes(g engine.Game, seat int, names []string) []Note {
	return []Note{{Key: "welcome", LogLine: LogLine{Kind: "note", Text: "Pick high."}}}
}

func (pickBoard) Show(g engine.Game, seat int, names []string) string {
	return fmt.Sprintf("Picks so far: %v\nPick 1, 2 or 3.\n", g.(*pickGame).picks)
}

func (pickBoard) Choices(g engine.Game, seat int, names []string) string {
	return "Moves: a number, 1 to 3\n"
}

func (pickBoard) ParseText(line string) (Move, error) {
	n, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || n < 1 {
		return nil, fmt.Errorf("%q is not a number to pick", line)
	}
	return pickMove{n}, nil
}

// newPick is a pick game of n seats after the given picks.
func newPick(n int, picks ...int) *pickGame {
	g := &pickGame{players: n}
	g.picks = append(g.picks, picks...)
	return g
}

// A second game of the tests' own, "pock": pick under another id, for 2 or 3 players, with a
// board of its own, so that the lobby is tested with more than one game.

func init() { engine.Register(pockRules{}) }

type pockRules struct{ pickRules }

func (pockRules) ID() string              { return "pock" }
func (pockRules) Name() string            { return "Pock" }
func (pockRules) Players() (min, max int) { return 2, 3 }

type pockBoard struct{ pickBoard }

const pockScript = "export const title = 'Pock';\n"

func (pockBoard) Game() string { return "pock" }
func (pockBoard) Assets() fs.FS {
	return fstest.MapFS{"board.js": {Data: []byte(pockScript)}, "board.css": {Data: []byte("/* pock */\n")}}
}
func (pockBoard) LobbyChoices() any {
	return map[string][]string{"speeds": {"slow", "fast"}, "pock": {"yes"}}
}
