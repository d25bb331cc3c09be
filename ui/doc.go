// Package ui is the front end of a person at a table: a protocol.Player that waits for a
// person's decision (Human, fed by a web page or a terminal), the local web server that shows
// the table to that person in a browser (Server: a lobby of the tables announced on the LAN,
// then the table itself, live), and a plain-text front end for terminals (Terminal).
//
// What it promises:
//   - The page and the terminal are only ever given the person's own seat's engine.View: public
//     information, the person's own cards and what the person's peeks showed. Never another
//     seat's face-down card.
//   - A move is checked against the View it answers (Check) before it reaches the node; an
//     illegal move is refused with a message that says why, and the person is asked again.
//   - Every asset is embedded in the binary (static/): nothing is loaded from the internet.
//   - The server answers only requests that carry its session key (given once in the address
//     it prints, then kept in a same-site cookie) and name this machine as their host, so that
//     other users of the machine and web sites open in the same browser cannot read the hand
//     or play for the person.
//
// The package knows nothing of libp2p: the command line (cmd/corruption) starts the nodes and
// feeds the server the node's status, the game's events and the lobby's announcements.
package ui
