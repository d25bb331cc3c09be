package bot

import "corruption/engine"

// The stand-in of an open seat (a player who left a table that plays on: the protocol's
// departures) is the random bot, seeded by the table for each decision (engine.StandInPlayer
// says why not the heuristic bot).
func init() {
	engine.RegisterStandIn("corruptia", engine.StandInPlayer(func(seed uint64) (engine.Player, error) {
		return NewPlayer("random", seed)
	}))
}
