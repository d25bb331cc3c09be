package browserstore

import _ "embed"

// Script is the JavaScript half of the backend (idb.js): the page that runs the seat loads it
// before the seat's WebAssembly, as a script of its own (the page's policy allows no eval).
//
//go:embed idb.js
var Script string
