// Package seat runs a person's seat in a browser: the same protocol.Node, games and page
// (ui.Server) as a native seat, over the bridge's network (a *bridge.Client) and the browser's
// Store (protocol/browserstore). cmd/seat wires it in the page (GOOS=js GOARCH=wasm); it
// imports no libp2p and nothing of the browser, so that its tests run natively.
//
// Its promises:
//   - The person's loop, as `corruption play`'s: the lobby (or, given a table, that table at
//     once), the table, the results with the audit of the log, a rematch or the end; the page
//     is served in process (ui.NewInProcess) from the first moment.
//   - The seat's keys are made from the Store's identity and table seeds, in the seat's own
//     process, and go nowhere: the network carries only what a native node sends.
//   - A run that stops in mid-table (a reload, a lost connection, a frozen page brought back)
//     resumes it from the Store at the next Run, as a native node resumes from --data: the
//     table kit fetches what the seat missed.
//   - When a table is over (finished, halted or dissolved: not paused nor interrupted), its
//     secrets are wiped from the Store (protocol.Store.WipeSecrets); its log stays.
//   - Tables the seat creates get PhoneClock, which a phone locked for a minute does not end.
package seat
