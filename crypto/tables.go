package crypto

import (
	"sync"

	"corruption/crypto/internal/group"
)

// Fixed-base tables. A check of a decryption share (or of a blame) computes
// R1 = s·G − c·Y for the key Y of its author, the same key in every share the author
// publishes: hundreds in a game. With a radix-16 comb table of G and one of Y
// (group.Table), R1 is about 60 table additions and four doublings instead of a
// double-scalar multiplication's 250 doublings and 80 additions. These are
// variable-time multiplications by the proof's public scalars (c, s), as the checks were.
//
// A key's table is built the second time a check meets the key, so a key met once (a
// sealed box to a stranger) never pays for one (about three scalar multiplications),
// and the last keyTableSlots keys met are kept, the oldest forgotten first: a table's
// seats and a few tables more in one process.

const keyTableSlots = 64

type keyTableEntry struct {
	table *group.Table // nil until the key is met a second time
}

var keyTables = struct {
	sync.Mutex
	m     map[[PointSize]byte]*keyTableEntry
	order [][PointSize]byte // the keys of m, oldest first
}{m: map[[PointSize]byte]*keyTableEntry{}}

// keyTable returns the table of key, or nil the first time key is met.
func keyTable(key *PublicKey) *group.Table {
	keyTables.Lock()
	e, ok := keyTables.m[key.enc]
	switch {
	case ok && e.table != nil:
		keyTables.Unlock()
		return e.table
	case !ok:
		if len(keyTables.order) == keyTableSlots {
			delete(keyTables.m, keyTables.order[0])
			keyTables.order = keyTables.order[1:]
		}
		keyTables.m[key.enc] = &keyTableEntry{}
		keyTables.order = append(keyTables.order, key.enc)
		keyTables.Unlock()
		return nil
	}
	keyTables.Unlock()
	t := group.NewTable(&key.p.e) // outside the lock: two checks may both build it, harmlessly
	keyTables.Lock()
	if e.table == nil {
		e.table = t
	}
	keyTables.Unlock()
	return t
}

// keyBaseMult sets out = a·Y + b·G for the key Y, with the key's table once it has one.
// Variable time: public scalars only.
func keyBaseMult(out *group.Element, a *group.Scalar, key *PublicKey, b *group.Scalar) {
	if t := keyTable(key); t != nil {
		group.VarTimeTablesMult(out, []*group.Scalar{a, b}, []*group.Table{t, group.BaseTable()})
		return
	}
	out.VarTimeDoubleScalarBaseMult(a, &key.p.e, b)
}
