// Package corruptia is the rule book of Corruptia as this project plays it
// (docs/CORRUPTIA.md), on the table kit of package engine.
//
// Rules registers the game under "corruptia"; a Game is one game at a table. It never calls
// cryptography: it asks the table, step by step (Due), for what needs hidden information (the
// people's die and the presidential token's toss by joint randomness, the bill deck shuffled
// by all with the set-aside bills never dealt, hands dealt to one seat alone, the opening
// discards as an anonymous pile, bills shown with proof, votes as simultaneous choices) and
// takes each result as an engine.Input (Apply). Apply judges on public information only, and
// Digest hashes public state only: what a node learns privately (its own bills, through
// LearnCard) is kept apart and changes neither. A move that breaks a rule is refused whole
// with a *engine.Fault naming the seat.
//
// For bots and boards: View(seat) is what a seat may see (its own bills and what is public),
// Next the decision due, Action and VoteAction the engine.Action of a move or a vote (tried
// first, so that a node never signs an illegal one), Proposals and CheckProposal what a
// proposal may be, Event what happened, with its words. For scripts and simulations, Host
// plays a game with full information on one copy.
//
// The card data (data/bills.csv, data/parties.csv) is embedded. The package uses the
// standard library and package engine only.
package corruptia
