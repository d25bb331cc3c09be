// Package seat is the person's loop: a person's seat, with its page (ui.Server), through the
// lobby, a table, its results, a rematch or the end, over any tablenet.Node. A phone runs it in
// its browser, over the bridge's network (a *bridge.Client) and the browser's Store
// (protocol/browserstore): cmd/seat wires it in the page (GOOS=js GOARCH=wasm). A laptop runs
// it for its own person (play, demo) over its libp2p node, and adds what only the command line
// has through the hooks of Config (hooks.go). It imports no libp2p and nothing of the browser,
// so that its tests run natively.
//
// Its promises:
//   - The person's loop: the lobby (or, given a table, that table at once), the table, the
//     results with the audit of the log, a rematch or the end; the page is served in process
//     (ui.NewInProcess) from the first moment, or by the laptop's listener.
//   - The seat's keys are made from the Store's identity and table seeds, in the seat's own
//     process, and go nowhere: the network carries only what a native node sends.
//   - A run that stops in mid-table (a reload, a lost connection, a frozen page brought back)
//     resumes it from the Store at the next Run, as a native node resumes from --data: the
//     table kit fetches what the seat missed.
//   - When a table is over (finished, halted or dissolved: not paused nor interrupted), its
//     secrets are wiped from the Store (protocol.Store.WipeSecrets); its log stays. A Store
//     kept as a command line's data directory (KeepData) keeps them, and notes no table for a
//     reload.
//   - Tables the seat creates get PhoneClock, which a phone locked for a minute does not end.
package seat
