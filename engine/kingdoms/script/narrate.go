package script

import (
	"fmt"
	"io"

	"corruption/engine"
	k "corruption/engine/kingdoms"
)

// Narrator writes a readable account of a game from its events, a line each, a blank line
// before each turn. Give its Event method as a game's OnEvent; with no W, it tells nothing.
type Narrator struct{ W io.Writer }

// Event tells one event.
func (n Narrator) Event(e engine.Event) {
	if n.W == nil {
		return // a narrator with no W tells nothing
	}
	if ke, ok := e.Data.(k.Event); ok && (ke.Kind == k.EventTurn || ke.Kind == k.EventFinalVoting) {
		fmt.Fprintln(n.W)
	}
	fmt.Fprintln(n.W, e.Text)
}
