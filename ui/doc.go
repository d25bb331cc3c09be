// Package ui is the front end of a person at a table, the shell every game shares: an
// engine.Player that waits for a person's decision (Human, fed by a web page), the local web
// server that shows the table in a browser (Server: a lobby of the tables announced on the
// LAN, then the table itself, live, its log, its clock and the results with the audit's
// verdict, and a rematch at the next table: Rematches, NewTable), and a plain-text front end
// for terminals (Terminal).
//
// The shell speaks English, Spanish and French (Languages): the page in the browser's language
// or the one the person picks, the terminal as LANG says. Its words are static/lang/LANG.json,
// read by the server (Words) and by the page's script alike; a board that is a Localizer is
// given the language too, and tells the game, its rules and its log in it.
//
// The shell knows no game. What a game looks like and how its moves are made is a Board (for
// the page) and a TextBoard (for the terminal), each in a package of the game's own
// (ui/corruption); the command line gives the server every game's board (the lobby offers each)
// and the server draws the table's with the board of its game, chosen by its id. A board turns
// the game as the person's seat knows it into JSON for its script (boards/GAME/board.js, served
// from the board's Assets), reads the moves and the table settings the page posts, and tells
// the game's events in words.
//
// The page reaches its seat through one script, api.js, and the server's Handler is the whole
// of its API: over HTTP on the laptop, or in process (InProcess) where the seat runs in the
// page itself.
//
// What it promises:
//   - The page and the terminal are only ever given what the person's node knows: the
//     engine.Game copy of the person's seat (public information, the person's own hidden
//     values, what the person's peeks showed), never another seat's hidden value.
//   - A move is checked by the board against the game it answers before it reaches the node;
//     an illegal move is refused with a message that says why, and the person is asked again.
//   - Every asset is embedded in the binary (static/ and the board's): nothing is loaded from
//     the internet.
//   - The server answers only requests that carry its session key (given once in the address
//     it prints, then kept in a same-site cookie named after the node) and name this machine as
//     their host, so that
//     other users of the machine and web sites open in the same browser cannot read the hand
//     or play for the person.
//
// The package knows nothing of libp2p: the command line (cmd/corruption) starts the nodes and
// feeds the server the node's status, the game's events, the lobby's announcements and how the
// node finds others (SetNetwork), and gives it a way to dial an address (Config.Dial).
package ui
