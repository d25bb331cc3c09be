package main

// A busy LAN, with real corruption bot processes: an extra node, two tables of one name,
// mismatched settings, a node paused past the clock, a node restarted after the others left.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExtraBotWaits: a fifth bot at a four-seat table disturbs nothing: four bots play the
// table to the end (identical logs, valid audits) and the fifth says it waits because the table
// is full, then gives up when its --wait ends, blaming nobody.
func TestExtraBotWaits(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	table := tableName(t)
	ps := newPlayers(t, 5)
	procs := startWithPeer(ctx, t, table, ps, []string{"--players", "4", "--wait", "8s"})
	var played, waited []int
	for i, p := range procs {
		code := p.wait(t, tableTimeout)
		switch {
		case code == 0:
			played = append(played, i)
		case strings.Contains(p.stderr.String(), "did not form within"):
			waited = append(waited, i)
		default:
			t.Fatalf("%s exited %d\nstdout:\n%s\nstderr:\n%s", p.name, code, p.stdout.String(), p.stderr.String())
		}
	}
	if len(played) != 4 || len(waited) != 1 {
		t.Fatalf("%d bots played and %d waited, want 4 and 1", len(played), len(waited))
	}
	extra := procs[waited[0]]
	if !strings.Contains(extra.stderr.String(), "full") {
		t.Errorf("the extra bot does not say the table was full:\n%s", extra.stderr.String())
	}
	if _, err := os.Stat(ps[waited[0]].log); err == nil {
		t.Errorf("the extra bot wrote a log of a table it never sat at")
	}
	var four []*proc
	var fourPs []player
	for _, i := range played {
		four, fourPs = append(four, procs[i]), append(fourPs, ps[i])
	}
	finish(t, four, fourPs, 4)
}

// TestMismatchedSettingsSaid: two bots that want one table with other settings each say so at
// once, naming the other and the setting, and neither hangs silently.
func TestMismatchedSettingsSaid(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	table := tableName(t)
	ps := newPlayers(t, 2)
	a := start(ctx, t, ps[0].name, botArgs(table, ps[0], []string{"--players", "3", "--name", "ann"}, loopback...)...)
	addr := a.waitLine(t, listenLine, 20*time.Second)[1]
	began := time.Now()
	b := start(ctx, t, ps[1].name, botArgs(table, ps[1], []string{"--players", "4", "--name", "bob", "--variant", "closed"},
		append(loopback, "--peer", addr)...)...)
	said := regexp.MustCompile(`"bob" also wants table .* but with 4 players \(we want 3\)`)
	a.waitLine(t, said, 20*time.Second)
	b.waitLine(t, regexp.MustCompile(`"ann" also wants table .* but with 3 players \(we want 4\) and standard \(we want closed\)`), 20*time.Second)
	// A figure, not an assertion: how long the reason took to show.
	t.Logf("the mismatch was said %v after the second bot started", time.Since(began).Round(time.Millisecond))
	a.kill(t)
	b.kill(t)
}

// TestPausedBotAgrees: a bot stopped (SIGSTOP) past the table's clock and then continued leaves
// one agreed outcome: every node ends the table the same way, and no node signs a note against
// a seat that wrote.
func TestPausedBotAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	table := tableName(t)
	ps := newPlayers(t, 4)
	// --escrow=false: the table ends when a player is silent (with escrow it would play on).
	procs := startWithPeer(ctx, t, table, ps, []string{"--players", "4", "--timeout", "3s", "--verbose", "--escrow=false"})
	// Pause the last bot once the table has formed on every node.
	victim := procs[3]
	for _, p := range procs {
		p.waitLine(t, regexp.MustCompile(`table .* formed`), 20*time.Second)
	}
	if err := victim.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// Continue it once every other bot has ended the table (named it silent, or agreed with a
	// note that did): it wakes to a table that ended while it slept, with its own log saying
	// its seat was due. (Continued as soon as the first bot names it, it races that bot's note:
	// a bot whose own clock is not yet out may take its entry first and play on, and without
	// escrow the two ends differ; docs/PROTOCOL.md, "Agreeing".)
	for _, p := range procs[:3] {
		p.waitLine(t, regexp.MustCompile(`abandoned the table`), 30*time.Second)
	}
	if err := victim.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	for _, p := range procs[:3] {
		p.wait(t, tableTimeout)
	}
	victim.wait(t, tableTimeout)
	type out struct {
		Finished bool `json:"finished"`
		Verdict  *struct {
			Kind string `json:"kind"`
			Seq  int    `json:"seq"`
			Seat int    `json:"seat"`
		} `json:"verdict"`
	}
	var outs []out
	for _, p := range procs {
		var o out
		if err := json.NewDecoder(strings.NewReader(p.stdout.String())).Decode(&o); err != nil {
			t.Fatalf("%s printed no outcome:\n%s\n%s", p.name, p.stdout.String(), p.stderr.String())
		}
		outs = append(outs, o)
	}
	for _, p := range procs {
		t.Logf("%s: %s", p.name, strings.TrimSpace(p.stdout.String()))
	}
	for i, o := range outs {
		a, b := outs[0], o
		same := a.Finished == b.Finished && (a.Verdict == nil) == (b.Verdict == nil)
		if same && a.Verdict != nil {
			same = *a.Verdict == *b.Verdict
		}
		if !same {
			t.Errorf("outcome %d differs from the first: %+v vs %+v", i, o, outs[0])
		}
	}
	// No node's note names a seat at an entry its own log already holds.
	for _, p := range ps {
		r := runCLI(t, "audit", "--json", p.log)
		if strings.Contains(r.stdout, `"blamed"`) {
			var rep struct {
				Blamed  int `json:"blamed"`
				At      int `json:"at"`
				Entries int `json:"entries"`
			}
			json.Unmarshal([]byte(r.stdout), &rep)
			if rep.Blamed >= 0 && rep.At < rep.Entries {
				t.Errorf("%s's log blames seat %d at entry %d, which it holds (%d entries)", p.name, rep.Blamed, rep.At, rep.Entries)
			}
		}
	}
}

// TestRestartedLateBlamesNobody: a bot killed for good, the others end the table naming it;
// restarted from its data directory after they left, it finds nobody to ask, says so, and stops
// without signing a note against anyone.
func TestRestartedLateBlamesNobody(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*tableTimeout)
	defer cancel()
	table := tableName(t)
	ps := newPlayers(t, 3)
	settings := []string{"--players", "3", "--timeout", "2s", "--verbose", "--escrow=false"} // a silent seat ends the table
	procs := startWithPeer(ctx, t, table, ps, settings)
	victim := procs[2]
	for _, p := range procs {
		p.waitLine(t, regexp.MustCompile(`table .* formed`), 20*time.Second)
	}
	victim.kill(t)
	for _, p := range procs[:2] {
		p.wait(t, tableTimeout)
	}
	// Back, alone, with its data: it resumes the table it was at.
	again := start(ctx, t, "restarted", botArgs(table, ps[2], settings, loopback...)...)
	again.waitLine(t, regexp.MustCompile(`no other player of the table answers`), 30*time.Second)
	if code := again.wait(t, tableTimeout); code == 0 {
		t.Fatalf("the restarted bot says the table ended well:\n%s", again.stdout.String())
	}
	logData, err := os.ReadFile(ps[2].data + "/tables/" + table + "/log")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(logData), "silent for") {
		t.Errorf("the restarted bot signed a note against another seat")
	}
}

// TestEightBotsTwoTablesMDNS: eight bots with one table name and four seats, finding each other
// by mDNS in a network namespace of the test's own, form two tables that both complete.
func TestEightBotsTwoTablesMDNS(t *testing.T) {
	if os.Getenv(netnsEnv) != "" {
		if os.Getenv("CORRUPTION_TEST_CASE") == "eight" {
			eightBotsInNamespace(t)
		}
		return
	}
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*tableTimeout)
	defer cancel()
	const inside = `ip link set lo up && ip link set lo multicast on || exit 97
exec "$0" -test.run='^TestEightBotsTwoTablesMDNS$' -test.count=1 -test.v -test.timeout=110s`
	cmd := exec.CommandContext(ctx, "unshare", "--net", "--pid", "--fork", "--kill-child", "--", "sh", "-c", inside, os.Args[0])
	cmd.Env = append(os.Environ(), netnsEnv+"="+bin, "CORRUPTION_TEST_CASE=eight")
	cmd.WaitDelay = 5 * time.Second
	outb, err := cmd.CombinedOutput()
	out := string(outb)
	if err != nil {
		t.Fatalf("the run inside a network namespace failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, "--- PASS: TestEightBotsTwoTablesMDNS") || strings.Contains(out, "--- SKIP") {
		t.Fatalf("the run inside a network namespace did not pass:\n%s", out)
	}
	t.Logf("inside the namespace:\n%s", out)
}

func eightBotsInNamespace(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Second)
	defer cancel()
	table := tableName(t)
	ps := newPlayers(t, 8)
	procs := make([]*proc, len(ps))
	for i, p := range ps {
		procs[i] = start(ctx, t, p.name, botArgs(table, p, []string{"--players", "4"}, "--listen", "/ip4/127.0.0.1/tcp/0")...)
	}
	byTable := map[string][]int{}
	for i, p := range procs {
		if code := p.wait(t, 90*time.Second); code != 0 {
			t.Fatalf("%s exited %d\nstdout:\n%s\nstderr:\n%s", p.name, code, p.stdout.String(), p.stderr.String())
		}
		var o outcome
		if err := json.NewDecoder(strings.NewReader(p.stdout.String())).Decode(&o); err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		byTable[o.ID] = append(byTable[o.ID], i)
	}
	if len(byTable) != 2 {
		t.Fatalf("the eight bots sat at %d tables, want 2: %v", len(byTable), byTable)
	}
	for id, idx := range byTable {
		if len(idx) != 4 {
			t.Fatalf("table %s has %d bots, want 4", id, len(idx))
		}
		var tp []*proc
		var pp []player
		for _, i := range idx {
			tp, pp = append(tp, procs[i]), append(pp, ps[i])
		}
		finish(t, tp, pp, 4)
	}
}
