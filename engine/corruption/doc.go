// Package corruption is the rule book of Corruption as this project plays it (docs/RULES.md).
//
// A State holds one game. Apply feeds it one Move at a time and either accepts the move or
// rejects it with a *MoveError that names the seat and what was wrong; a rejected move leaves
// the state exactly as it was. Next says who must act and which decision is due; View(seat) is
// what that seat may see, and is all that bots and user interfaces are given.
//
// The engine is deterministic: no clock, no randomness, no map iteration. Randomness (the order
// of the contract deck, the first player of round 1) enters as data, in the Config or in Deal
// moves. The same moves applied to two States give the same Digest.
//
// The engine runs with full information (simulations, scripts, tests) or with hidden cards (the
// network game): a face-down placement may carry CardUnknown; the card arrives later in a Reveal
// move, and only then are the checks that need it made (the card was in hand, it was not played
// twice this round, no character on a Swiss account). The Digest covers public information only,
// so a full-information game and the same game with hidden cards reach the same digests.
//
// Rules and Game (game.go) put the game on the table kit of package engine: Game wraps a State
// started WithHiddenCards and says, step by step, what the table must do for it; codec.go holds
// the canonical encodings of a table's configuration and of a seat's move.
//
// The package uses the standard library and package engine only.
package corruption
