package protocol_test

import (
	"bytes"
	"reflect"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
	"corruption/protocol/internal/wire"
)

// TestAuditChecked: a node's saved log, audited against the table that checked it as it came
// (what a seat shows at a table's end), gets a full audit's very report, made without a second
// check when the log holds the table's entries exactly; and any other log, or a table that has
// not ended, is audited in full.
func TestAuditChecked(t *testing.T) {
	w, _ := lockstepWorld(t, 4, corruption.Standard, -1)
	log := logBytes(t, w.log)
	full, err := protocol.Audit(bytes.NewReader(log), engine.Options{})
	if err != nil || !full.Valid {
		t.Fatalf("the table's log does not audit: %+v %v", full, err)
	}
	// Every seat's table, and an observer's.
	for i, tb := range append(w.tables, w.obs) {
		if protocol.ReportSameForTest(tb, log) == nil {
			t.Errorf("table %d: the log holds its entries exactly, and it is audited in full", i)
		}
		got, err := protocol.AuditChecked(log, tb, engine.Options{})
		if err != nil || !reflect.DeepEqual(got, full) {
			t.Errorf("table %d: AuditChecked %+v (%v), Audit %+v", i, got, err, full)
		}
	}

	note := &protocol.Note{Writer: 1, Table: w.genesis.Table, Verdict: protocol.Verdict{Kind: protocol.VerdictAbandoned, Seq: 3, Seat: 2, Reason: "silent"}}
	last := w.log[len(w.log)-1]
	forged := *last
	forged.Sig[5] ^= 1
	other := append(append([]*protocol.Entry{}, w.log[:len(w.log)-1]...), &forged)
	for name, bad := range map[string][]byte{
		"cut short":          logBytes(t, w.log[:len(w.log)-1]),
		"a signature forged": logBytes(t, other),
		"a note":             wire.AppendRecord(append([]byte{}, log...), note.Marshal()),
		"not a log":          []byte("hello"),
	} {
		if protocol.ReportSameForTest(w.tables[0], bad) != nil {
			t.Errorf("%s: the log is not the table's, and it is not audited in full", name)
		}
		want, werr := protocol.Audit(bytes.NewReader(bad), engine.Options{})
		got, gerr := protocol.AuditChecked(bad, w.tables[0], engine.Options{})
		if !reflect.DeepEqual(got, want) || (werr == nil) != (gerr == nil) {
			t.Errorf("%s: AuditChecked %+v (%v), Audit %+v (%v)", name, got, gerr, want, werr)
		}
		if name == "a signature forged" && (got == nil || got.Valid) {
			t.Errorf("%s: the audit finds it valid: %+v", name, got)
		}
	}

	// A table that has not ended: its log is audited in full, and found incomplete.
	mid, _ := lockstepWorld(t, 4, corruption.Standard, 40)
	midLog := logBytes(t, mid.log)
	if protocol.ReportSameForTest(mid.tables[0], midLog) != nil {
		t.Error("a table under way: its log is not audited in full")
	}
	got, err := protocol.AuditChecked(midLog, mid.tables[0], engine.Options{})
	if err != nil || got.Valid || got.WaitingFor < 0 {
		t.Errorf("a table under way: %+v %v", got, err)
	}
}
