package protocol_test

import (
	"reflect"
	"testing"

	"corruption/engine"
	"corruption/protocol"
)

// TestCloneForTest: a copy of a table shares nothing that Append changes (FuzzTableAppend tries
// entries on copies of tables it built once, and a copy that wrote into its original made a
// later try fail for what an earlier one did). Two tables built alike stay alike while a copy of
// one plays the rest of the log, whatever point it was copied at, on a seat's node and on an
// observer.
func TestCloneForTest(t *testing.T) {
	for _, name := range []string{"freestud-lbb-4", "toy-3", "escrow-toy-4"} {
		t.Run(name, func(t *testing.T) {
			spec := goldSpecNamed(t, name)
			entries := readGolden(t, name)
			w := newWorld(t, spec, "")
			build := func(node, upTo int) *protocol.Table {
				var self *protocol.Self
				if node < spec.players {
					self = protocol.NewSelf(w.rosterKeys[node], w.selves[node].Seed)
				}
				tb, err := protocol.NewTable(entries[0], self, engine.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range entries[1:upTo] {
					if err := tb.Append(e); err != nil {
						t.Fatal(err)
					}
				}
				return tb
			}
			steps := []int{1, len(entries) / 4, len(entries) / 2, 3 * len(entries) / 4, len(entries) - 1}
			for _, node := range []int{0, spec.players - 1, spec.players} {
				for _, at := range steps {
					a, b := build(node, at), build(node, at)
					c := protocol.CloneForTest(a)
					for _, e := range entries[at:] {
						if err := c.Append(e); err != nil {
							t.Fatalf("node %d, copied at %d: the copy refuses entry %d: %v", node, at, e.Seq, err)
						}
					}
					if !c.Done() {
						t.Fatalf("node %d, copied at %d: the copy did not end", node, at)
					}
					if !reflect.DeepEqual(a, b) {
						t.Errorf("node %d, copied at %d: playing the copy changed the table it was copied from", node, at)
					}
				}
			}
		})
	}
}
