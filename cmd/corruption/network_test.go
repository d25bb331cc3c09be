package main

// Network tables of corruption bot processes on this machine's loopback. Every bot gets
// --no-mdns and a loopback --listen address; mDNS runs only in TestBotsWithMDNS, inside a
// network namespace of its own (mdns_test.go).

import (
	"bytes"
	"context"
	"corruption/protocol"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// tableTimeout bounds a whole network table, from the first bot's start to the last's exit.
const tableTimeout = 60 * time.Second

// loopback is what every bot outside a namespace of the test's own gets.
var loopback = []string{"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0"}

// listenLine is the line a bot prints for each of its listen addresses.
var listenLine = regexp.MustCompile(`^listening on (/ip4/127\.0\.0\.1/tcp/(\d+)/p2p/(\w+))$`)

// outcome is what corruption bot --json prints.
type outcome struct {
	Table    string          `json:"table"`
	ID       string          `json:"id"`
	Seat     int             `json:"seat"`
	Finished bool            `json:"finished"`
	Scores   []int           `json:"scores"`
	Winners  []int           `json:"winners"`
	Digest   string          `json:"digest"`
	Entries  int             `json:"entries"`
	Verdict  json.RawMessage `json:"verdict"`
}

// player is one bot of a table: its data directory and the log it writes with --out.
type player struct {
	name string
	data string
	log  string
}

func newPlayers(t *testing.T, n int) []player {
	dir := t.TempDir()
	ps := make([]player, n)
	for i := range ps {
		name := string(rune('a' + i))
		ps[i] = player{name: "bot " + name, data: filepath.Join(dir, name), log: filepath.Join(dir, name+".log")}
	}
	return ps
}

var tables atomic.Int64

// tableName is a table name of the test's own, so that tables of concurrent tests (and of other
// runs on this machine) never meet.
func tableName(t *testing.T) string {
	name := fmt.Sprintf("test-%d-%d-%d", os.Getpid(), time.Now().UnixNano()%1e9, tables.Add(1))
	t.Logf("table %s", name)
	return name
}

// botArgs are a bot's arguments: the table settings, its files, and extra (network) flags.
func botArgs(table string, p player, settings []string, extra ...string) []string {
	args := []string{"bot", "--table", table, "--data", p.data, "--out", p.log, "--json"}
	if !slices.Contains(settings, "--timeout") {
		args = append(args, "--timeout", "30s")
	}
	return append(append(args, settings...), extra...)
}

// startWithPeer starts the first bot, listening on loopback, and the others pointed at it
// with --peer. It returns the processes.
func startWithPeer(ctx context.Context, t *testing.T, table string, ps []player, settings []string) []*proc {
	procs := make([]*proc, len(ps))
	procs[0] = start(ctx, t, ps[0].name, botArgs(table, ps[0], settings, loopback...)...)
	first := procs[0].waitLine(t, listenLine, 20*time.Second)[1]
	for i := 1; i < len(ps); i++ {
		procs[i] = start(ctx, t, ps[i].name, botArgs(table, ps[i], settings, append(loopback, "--peer", first)...)...)
	}
	return procs
}

// finish waits for every bot to exit 0 with a finished outcome, checks that they agree and
// that their logs are byte-identical and pass audit, and returns the outcome and the log.
func finish(t *testing.T, procs []*proc, ps []player, players int) (outcome, []byte) {
	t.Helper()
	outs := make([]outcome, len(procs))
	for i, p := range procs {
		if code := p.wait(t, tableTimeout); code != 0 {
			t.Fatalf("%s exited %d, want 0\nstdout:\n%s\nstderr:\n%s", p.name, code, p.stdout.String(), p.stderr.String())
		}
		dec := json.NewDecoder(strings.NewReader(p.stdout.String()))
		if err := dec.Decode(&outs[i]); err != nil || dec.More() {
			t.Fatalf("%s: stdout is not one JSON outcome (%v):\n%s", p.name, err, p.stdout.String())
		}
	}
	seats := map[int]bool{}
	for i, o := range outs {
		if !o.Finished || len(o.Verdict) > 0 || len(o.Scores) != players || len(o.Winners) == 0 || o.Digest == "" {
			t.Errorf("%s: outcome %+v, want a finished table with %d scores, winners and a digest", ps[i].name, o, players)
		}
		seats[o.Seat] = true
		a, b := outs[0], o
		a.Seat, b.Seat = 0, 0
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s and %s disagree:\n%+v\n%+v", ps[0].name, ps[i].name, outs[0], o)
		}
	}
	for s := 0; s < players; s++ {
		if !seats[s] {
			t.Errorf("no bot says it sat at seat %d: %+v", s, outs)
		}
	}
	log, err := os.ReadFile(ps[0].log)
	if err != nil {
		t.Fatalf("%s: --out: %v", ps[0].name, err)
	}
	for _, p := range ps[1:] {
		other, err := os.ReadFile(p.log)
		if err != nil {
			t.Fatalf("%s: --out: %v", p.name, err)
		}
		if !bytes.Equal(log, other) {
			t.Errorf("the logs of %s and %s differ (%d and %d bytes)", ps[0].name, p.name, len(log), len(other))
		}
	}
	for _, p := range ps {
		r := runCLI(t, "audit", "--json", p.log)
		var rep struct {
			Valid   bool   `json:"valid"`
			Digest  string `json:"digest"`
			Scores  []int  `json:"scores"`
			Winners []int  `json:"winners"`
			Entries int    `json:"entries"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil {
			t.Errorf("audit of %s's log:\n%v", p.name, r)
			continue
		}
		if !rep.Valid || rep.Digest != outs[0].Digest || !reflect.DeepEqual(rep.Scores, outs[0].Scores) ||
			!reflect.DeepEqual(rep.Winners, outs[0].Winners) || rep.Entries != outs[0].Entries {
			t.Errorf("audit of %s's log reports %+v; the bots said %+v", p.name, rep, outs[0])
		}
	}
	return outs[0], log
}

// TestBotsWithPeer: four bot processes find each other through --peer, play a table to the
// end and agree; their logs are identical and pass audit, and tampered copies fail it.
func TestBotsWithPeer(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	ps := newPlayers(t, 4)
	procs := startWithPeer(ctx, t, tableName(t), ps, []string{"--players", "4"})
	out, log := finish(t, procs, ps, 4)
	if t.Failed() {
		return
	}

	t.Run("replay", func(t *testing.T) {
		r := runCLI(t, "replay", ps[1].log)
		if r.code != 0 {
			t.Fatalf("%v", r)
		}
		for round := 1; round <= 4; round++ {
			if !strings.Contains(r.stdout, fmt.Sprintf("== Round %d ==", round)) {
				t.Errorf("round %d is not told", round)
			}
		}
		if !strings.Contains(r.stdout, winnerLine(out.Winners)) || !strings.Contains(r.stdout, out.Digest) {
			t.Errorf("the account does not end with the winners %v and the digest %s\n%s", out.Winners, out.Digest, r.stdout)
		}
	})

	t.Run("tampered", func(t *testing.T) {
		testTampered(t, log, out, ps)
	})
}

// TestBotsFreeStudLBB: a 3-player free-stud table with the little black book, and with escrow
// (on by default at 3 seats): every seat's deal is in the log, which audits.
func TestBotsFreeStudLBB(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	ps := newPlayers(t, 3)
	procs := startWithPeer(ctx, t, tableName(t), ps, []string{"--players", "3", "--variant", "free-stud", "--lbb"})
	out, logData := finish(t, procs, ps, 3)
	if t.Failed() {
		return
	}
	entries, err := protocol.ReadLog(bytes.NewReader(logData))
	if err != nil {
		t.Fatal(err)
	}
	deals := 0
	for _, e := range entries {
		if e.Kind == protocol.KindEscrow {
			deals++
		}
	}
	if deals != 3 {
		t.Errorf("the log of a 3-seat table (escrow by default) holds %d escrow deals, want 3", deals)
	}
	r := runCLI(t, "replay", ps[2].log)
	if r.code != 0 {
		t.Fatalf("%v", r)
	}
	for _, w := range []string{"== Round 4 ==", "chooses face-up positions", "peeks at card", winnerLine(out.Winners)} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("the replay of a free-stud game with the little black book does not say %q\n%s", w, r.stdout)
		}
	}
}

// TestBotKilledAndRestarted: a bot killed with SIGKILL in the middle of a table and started
// again with the same data directory and command line resumes its seat; the table ends as if
// nothing had happened. Bot a listens, b dials a, c dials a and b; each on a fixed port.
func TestBotKilledAndRestarted(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	tests := []struct {
		name   string
		victim int // which bot is killed
		killAt int // once its log on disk holds this many entries
	}{
		{"b during the deal", 1, 12},
		{"b in round 1", 1, 30},
		{"a, which the others dial, in round 2", 0, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			killAndRestart(t, tt.victim, tt.killAt)
		})
	}
}

func killAndRestart(t *testing.T, victim, killAt int) {
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	table := tableName(t)
	ps := newPlayers(t, 3)
	settings := []string{"--players", "3", "--verbose"}
	ports := freePorts(t, 3)
	args := make([][]string, 3)
	procs := make([]*proc, 3)
	var addrs []string
	for i := range ps {
		extra := []string{"--no-mdns", "--listen", fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", ports[i])}
		for _, a := range addrs {
			extra = append(extra, "--peer", a)
		}
		args[i] = botArgs(table, ps[i], settings, extra...)
		procs[i] = start(ctx, t, ps[i].name, args[i]...)
		m := procs[i].waitLine(t, listenLine, 20*time.Second)
		if m[2] != strconv.Itoa(ports[i]) {
			t.Fatalf("%s listens on %s, want port %d", ps[i].name, m[1], ports[i])
		}
		addrs = append(addrs, m[1])
	}
	formed := regexp.MustCompile(`table "` + regexp.QuoteMeta(table) + `" formed: seat \d of 3`)
	for _, p := range procs {
		p.waitLine(t, formed, 20*time.Second)
	}

	v := procs[victim]
	vLog := filepath.Join(ps[victim].data, "tables", table, "log")
	waitEntries(t, v, vLog, killAt, 20*time.Second)
	v.kill(t)
	atKill := countEntries(t, vLog)
	t.Logf("killed %s with %d entries on disk", ps[victim].name, atKill)

	procs[victim] = start(ctx, t, ps[victim].name+" (restarted)", args[victim]...)
	procs[victim].waitLine(t, regexp.MustCompile(`resumed table "`+regexp.QuoteMeta(table)+`" from \d+ saved entries`), 20*time.Second)
	out, _ := finish(t, procs, ps, 3)
	if atKill >= out.Entries {
		t.Errorf("the bot was killed with %d entries, the table has %d: it was not killed in the middle", atKill, out.Entries)
	}
}

// freePorts finds n free TCP ports on the loopback.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// waitEntries waits until the log file at path, which the running process p writes, holds at
// least n complete records. The condition is the file itself, read every 2 ms.
func waitEntries(t *testing.T, p *proc, path string, n int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for countEntries(t, path) < n {
		select {
		case <-p.done:
			t.Fatalf("%s exited before its log reached %d entries\nstderr:\n%s", p.name, n, p.stderr.String())
		case <-tick.C:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s's log did not reach %d entries within %v", p.name, n, timeout)
		}
	}
}

// countEntries counts the complete records of a log file (0 if it does not exist yet).
func countEntries(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	recs, _, _ := splitLog(data)
	return len(recs)
}

// TestBotInterrupted: Ctrl-C (SIGINT) stops a bot promptly, with a message a player
// understands, before its table forms and in the middle of a game. In the middle of a game
// the bot keeps its log (--out), and the others name it as having abandoned the table once
// --timeout passes.
func TestBotInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	interrupted := func(t *testing.T, p *proc) {
		t.Helper()
		if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		if code := p.wait(t, 10*time.Second); code == 0 {
			t.Errorf("%s exits 0 when interrupted", p.name)
		}
		if msg := p.stderr.String(); strings.Contains(msg, "context canceled") || !strings.Contains(msg, "interrupt") {
			t.Errorf("%s, interrupted, does not say so:\n%s", p.name, msg)
		}
	}

	t.Run("before the table forms", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
		defer cancel()
		ps := newPlayers(t, 1)
		p := start(ctx, t, ps[0].name, botArgs(tableName(t), ps[0], []string{"--players", "3"}, loopback...)...)
		p.waitLine(t, listenLine, 20*time.Second)
		interrupted(t, p)
	})

	t.Run("in the middle of a game", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
		defer cancel()
		table := tableName(t)
		ps := newPlayers(t, 3)
		// --escrow=false: the others end the table (with escrow they would play on without it).
		settings := []string{"--players", "3", "--verbose", "--timeout", "3s", "--escrow=false"}
		procs := startWithPeer(ctx, t, table, ps, settings)
		formed := regexp.MustCompile(`table "` + regexp.QuoteMeta(table) + `" formed: seat (\d) of 3`)
		for _, p := range procs {
			p.waitLine(t, formed, 20*time.Second)
		}
		const c = 2
		waitEntries(t, procs[c], filepath.Join(ps[c].data, "tables", table, "log"), 30, 20*time.Second)
		interrupted(t, procs[c])
		if r := runCLI(t, "audit", ps[c].log); r.code != 1 || !strings.Contains(r.stderr, "incomplete") {
			t.Errorf("the interrupted bot's --out log: want exit 1, incomplete\n%v", r)
		}

		// The interrupted bot's seat: the one its key signs for at the end of its log (the seats
		// are drawn once the keys are in).
		victimSeat := -1
		cLog, err := os.ReadFile(filepath.Join(ps[c].data, "tables", table, "log"))
		if err != nil {
			t.Fatal(err)
		}
		cEntries, _ := protocol.ReadLog(bytes.NewReader(cLog))
		seed, err := os.ReadFile(filepath.Join(ps[c].data, "identity"))
		if err != nil {
			t.Fatal(err)
		}
		key := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
		for i := len(cEntries) - 1; i >= 0 && victimSeat < 0; i-- {
			if cEntries[i].Verify(key) {
				victimSeat = cEntries[i].Seat
			}
		}
		var logs [][]byte
		for i, p := range procs[:c] {
			if code := p.wait(t, tableTimeout); code != 1 {
				t.Errorf("%s exits %d at a table abandoned by another, want 1", p.name, code)
			}
			var o struct {
				Finished bool                       `json:"finished"`
				Verdict  map[string]json.RawMessage `json:"verdict"`
			}
			if err := json.Unmarshal([]byte(p.stdout.String()), &o); err != nil {
				t.Fatalf("%s: %v\n%s", p.name, err, p.stdout.String())
			}
			seat := ""
			for k, v := range o.Verdict {
				if strings.EqualFold(k, "seat") {
					seat = string(v)
				}
			}
			if o.Finished || seat != strconv.Itoa(victimSeat) {
				t.Errorf("%s: outcome %s; want an unfinished table that names seat %d", ps[i].name, p.stdout.String(), victimSeat)
			}
			if !strings.Contains(p.stderr.String(), fmt.Sprintf("seat %d abandoned the table", victimSeat)) {
				t.Errorf("%s does not say that seat %d abandoned the table", ps[i].name, victimSeat)
			}
			log, err := os.ReadFile(ps[i].log)
			if err != nil {
				t.Fatalf("%s: --out: %v", ps[i].name, err)
			}
			logs = append(logs, log)
		}
		// Their entries must be the same; each ends with its own signed note of the verdict.
		if len(logs) == 2 {
			a, _, errA := protocol.ReadLogNotes(bytes.NewReader(logs[0]))
			b, nb, errB := protocol.ReadLogNotes(bytes.NewReader(logs[1]))
			if errA != nil || errB != nil || len(a) != len(b) || len(nb) != 1 {
				t.Errorf("the two remaining bots' logs: %v, %v, %d and %d entries, %d notes", errA, errB, len(a), len(b), len(nb))
			}
			for k := range min(len(a), len(b)) {
				if a[k].Hash() != b[k].Hash() {
					t.Errorf("the two remaining bots' logs differ at entry %d", k)
					break
				}
			}
		}
	})
}
