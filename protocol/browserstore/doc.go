// Package browserstore keeps a browser seat's files (protocol.Store's) in the browser's
// IndexedDB, so that a seat in a phone's page resumes after a reload or a dropped Wi-Fi as a
// native node resumes from its data directory. It builds for js/wasm only.
//
// Its promises, on top of protocol.Backend's:
//   - Per seat. One database per origin holds every seat's files, each under the seat's id (a
//     random name the page keeps, one a tab: OpenSeat); a seat's files are a data directory
//     of their own, so its tables' files are apart as on disk (tables/NAME/...), and two
//     seats, or two tables, in one browser never read or overwrite each other's.
//   - One writer. A seat is held by one tab at a time: Lock writes the tab's random token as
//     the seat's owner, and every change to the seat's files checks, in the same transaction,
//     that the owner is still that token. A tab that opens a seat takes it over only when no
//     live tab answers for it (a BroadcastChannel question); the tab it was taken from finds
//     out at its next write, which fails with protocol.ErrLocked, so two tabs never both write
//     one seat.
//   - Durable as far as the browser allows: a write, a rename, a removal and a synced append
//     are each one transaction committed with strict durability before the call returns.
//   - In order, with no hole. An append without a sync (the entries a node receives) is not
//     waited for, but it is one transaction made at the call, and IndexedDB runs a store's
//     transactions in the order they were made: every later call sees it. An append lands
//     only after the chunk before it, so none follows one that failed, and the first failure
//     is returned by the appender's next call (Append, Size or Close) and every one after.
//
// What is not promised: the browser may clear its storage (private mode, "clear site data",
// storage pressure); the seat then starts afresh with a new identity, as a node given an empty
// --data does.
package browserstore
