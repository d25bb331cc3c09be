package bot

import "corruption/engine/botkit"

// The stand-in of an open seat (a player who left a table that plays on: the protocol's
// departures) is the random bot, seeded by the table for each decision (engine.StandInPlayer
// says why not the heuristic bot).
func init() { botkit.StandIn("kingdoms", kinds, "random") }
