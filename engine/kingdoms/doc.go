// Package kingdoms is the rule book of Corrupted Kingdoms as this project plays it, on the
// table kit of package engine: 2 to 6 corporations corrupt a realm's senate and kingdoms with
// minions, pass bills full of favors, and are rewarded with guilty pleasures. The rule sheet
// (the seed corrupted-kingdoms-rules-en.txt) gives the rules and the counts; the components it
// leaves out (leaders' costs and preferences, monarchs, favors' minions, guilty pleasures,
// corporations' mats, chaos cards) are this project's own, in data/ (one file per kind), and
// docs/KINGDOMS.md lists every value and every decision taken where the sheet is silent. The
// sheet's rules are the default; a table may add this project's house rules "even"
// (Config.Even: the last round played to its end, guilty pleasures taken from the bottom marker
// up), which make the places in turn order fairer (docs/KINGDOMS.md, "Balance").
//
// Rules registers the game under "kingdoms". A Game never calls cryptography: it asks the table
// for every hidden-information step by data (engine.Step): joint randomness for corporations
// and the starting player, shuffled decks for favors (a hidden random selection per type),
// guilty pleasures, shareholder and chaos cards, private deals, a face-down chaos discard,
// secret simultaneous votes, chaos cards shown with proof when played and shareholder cards at
// the end. Apply judges on public information only and Digest hashes public state only; what a
// node learns privately (LearnValue, LearnCard) changes neither.
//
// The game reads like the rule book: setup.go is the setup, turn.go the actions, vote.go the
// votes and bill bonuses, chaos.go the chaos cards, score.go the scoring; due.go is how they are
// put in order, step by step. View(seat) is what a seat may see; Legal its legal moves; Action
// turns a Move into the kit's engine.Action. Local plays a game with full information in
// memory (simulations, scripts, tests), through the same Game.
//
// The package uses the standard library and package engine only.
package kingdoms
