package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditConvicted: corruption audit and replay say of a log that went on past a cheat
// (protocol's testdata/convicted, version 4) that it is valid, who was caught cheating, where,
// and that a bot played the seat from there; --json reports the conviction.
func TestAuditConvicted(t *testing.T) {
	t.Parallel()
	log := filepath.Join("..", "..", "protocol", "testdata", "convicted", "corruption-4-shares.log")
	r := runCLI(t, "audit", log)
	if r.code != 0 || !strings.Contains(r.stdout, "valid: table") ||
		!strings.Contains(r.stdout, "seat 1 was caught cheating at entry 22 (malformed") ||
		!strings.Contains(r.stdout, "the other players played on, with a bot in its seat") {
		t.Fatalf("audit of a convicted log:\n%v", r)
	}
	r = runCLI(t, "audit", "--json", log)
	var rep struct {
		Valid     bool `json:"valid"`
		Convicted []struct {
			Seat   int    `json:"seat"`
			Seq    uint64 `json:"seq"`
			What   string `json:"what"`
			Reason string `json:"reason"`
		} `json:"convicted"`
		Open []int `json:"open"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil || !rep.Valid || len(rep.Convicted) != 1 ||
		rep.Convicted[0].Seat != 1 || rep.Convicted[0].Seq != 22 || rep.Convicted[0].What != "shares" || rep.Convicted[0].Reason == "" {
		t.Fatalf("audit --json of a convicted log:\n%v", r)
	}
	r = runCLI(t, "replay", log)
	if r.code != 0 || !strings.Contains(r.stdout, "seat 1 was caught cheating at entry 22") {
		t.Fatalf("replay of a convicted log:\n%v", r)
	}
}
