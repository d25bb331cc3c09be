package seat

import (
	"context"

	"corruption/engine"
	"corruption/protocol"
	"corruption/ui"
)

// What only a laptop's command line adds to the person's loop comes in through hooks of
// Config, so that the phone's seat and the laptop's person run the same loop (docs/
// ARCHITECTURE.md, "The person's loop"): a phone leaves them zero. Their promises:
//   - Page amends the page's configuration before its server exists (the laptop's bots and
//     their levels, its phones' button, Quit, the join by code, the network it dials).
//   - Sit is called before each table (Run's error if it fails), and what it returns wraps
//     that table: its clock, its private channel, what happens once it ended (Ended: --out,
//     the outcome printed, the exit status) and once the person moves on (Close: the local
//     bots stop).
//   - Front, if set, is the person in place of the page (the terminal): Run plays Given once
//     and returns after its results.
//   - OnLobby is told each time the person is in the lobby.

// A Sitting is what the program that runs the loop adds around one table (Config.Sit).
type Sitting struct {
	// Clock, if set, is the table's clock in place of the loop's.
	Clock *Clock
	// Private, if set, is the private table the person was admitted to: the table is played
	// on its sealed channel and not announced in the lobby.
	Private *protocol.PrivateTable
	// NoRematch: a rematch asked from the table's results goes back to the lobby (no rematch
	// of a private table yet: it would be open).
	NoRematch bool
	// Resume, if set, is the command that resumes the table, told its outcome (the results
	// show it when the table paused).
	Resume func(*protocol.Outcome) string
	// Ended, if set, is told how the table ended, once the page shows it: its node (nil when
	// it could not start), its result, and where the person is.
	Ended func(node *protocol.Node, res ui.Result, end End)
	// Close, if set, is called once the person moves on from the table (a rematch, the lobby,
	// the end of Run).
	Close func()
}

// End is where a table's end leaves the person (Sitting.Ended).
type End int

const (
	// Over: the table ended and its results are in sight, until the person chooses what next.
	Over End = iota
	// Left: the person left the table (back to the lobby).
	Left
	// Stopped: Run's context ended (the page closed, the program quits).
	Stopped
)

// A Front is the person at a front end other than the page (the command line's terminal):
// the table's player, told its changes, its events, its chat and how it ended.
type Front interface {
	engine.Player
	Update(protocol.Status)
	Event(engine.Event)
	Chat(protocol.ChatMessage)
	Finish(ui.Result)
}

// shows is what a table tells the person: the page's server, or a Front.
type shows interface {
	Update(protocol.Status)
	Event(engine.Event)
	Chat(protocol.ChatMessage)
	Finish(ui.Result)
}

// sit is cfg.Sit's Sitting for choice, or none.
func (cfg *Config) sit(ctx context.Context, choice ui.TableChoice) (Sitting, error) {
	if cfg.Sit == nil {
		return Sitting{}, nil
	}
	return cfg.Sit(ctx, choice)
}

// ended tells sit's Ended and Close how the table ended.
func (s Sitting) ended(node *protocol.Node, res ui.Result, end End) {
	if s.Ended != nil {
		s.Ended(node, res, end)
	}
}

func (s Sitting) close() {
	if s.Close != nil {
		s.Close()
	}
}
