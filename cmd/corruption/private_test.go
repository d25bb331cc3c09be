package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A private table of corruption bot processes on loopback (private.go): the creator prints a
// join code; a stranger with a wrong code is refused, and the creator is told; two friends
// join with the code (one types it in capitals, without dashes); the table completes with
// identical logs that audit.

var joinCodeLine = regexp.MustCompile(`^join code: (\w\w-\w\w\w-\w\w\w)$`)

func TestPrivateBotsOnLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	ps := newPlayers(t, 4) // three players and a stranger
	args := func(p player, extra ...string) []string {
		a := []string{"bot", "--data", p.data, "--out", p.log, "--json", "--timeout", "30s"}
		return append(append(a, loopback...), extra...)
	}
	creator := start(ctx, t, ps[0].name, args(ps[0], "--private", "--players", "3")...)
	addr := creator.waitLine(t, listenLine, 20*time.Second)[1]
	code := creator.waitLine(t, joinCodeLine, 20*time.Second)[1]

	// The stranger changes the last character of the secret.
	wrong := code[:len(code)-1] + map[bool]string{true: "a", false: "b"}[code[len(code)-1] == 'b']
	stranger := start(ctx, t, ps[3].name, args(ps[3], "--join", wrong, "--peer", addr)...)
	if c := stranger.wait(t, tableTimeout); c != 1 || !strings.Contains(stranger.stderr.String(), "the join code is wrong") {
		t.Fatalf("the stranger with a wrong code exited %d:\n%s", c, stranger.stderr.String())
	}
	creator.waitLine(t, regexp.MustCompile(`a failed attempt to join with the code, .*\(1 failed so far\)`), 20*time.Second)

	typed := strings.ToUpper(strings.ReplaceAll(code, "-", ""))
	procs := []*proc{creator,
		start(ctx, t, ps[1].name, args(ps[1], "--join", code, "--peer", addr)...),
		start(ctx, t, ps[2].name, args(ps[2], "--join", typed, "--peer", addr)...)}
	out, log := finish(t, procs, ps[:3], 3)
	if !strings.HasPrefix(out.Table, "private-") || strings.Contains(out.Table, code[3:6]) {
		t.Errorf("the private table is named %q", out.Table)
	}
	if strings.Contains(string(log), strings.ReplaceAll(code, "-", "")[2:]) {
		t.Error("the log holds the join code's secret")
	}
}

// TestPrivateFlags: --private and --join refuse what does not go with them.
func TestPrivateFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		say  string
	}{
		{[]string{"bot", "--private", "--join", "2s-fn8-de6"}, "give one of them"},
		{[]string{"bot", "--private", "--table", "t", "--players", "3"}, "leave --table out"},
		{[]string{"bot", "--join", "2s-fn8-de6", "--players", "3"}, "leave --game and --players out"},
		{[]string{"bot", "--join", "2s-fn8"}, "want 8"},
		{[]string{"bot", "--join", "2s-fn8-de6@nowhere"}, "not a relay's address"},
		{[]string{"bot", "--join", "2s-fn8-de6", "--listen", "none"}, "needs a --relay"},
		{[]string{"bot", "--private"}, "--players is required"},
	} {
		r := runCLI(t, tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.say) {
			t.Errorf("corruption %s: exit %d, want 2 and %q\n%s", strings.Join(tc.args, " "), r.code, tc.say, r.stderr)
		}
	}
}

var (
	relayLine   = regexp.MustCompile(`^relay at (/ip4/127\.0\.0\.1/tcp/\d+/p2p/\w+)$`)
	circuitLine = regexp.MustCompile(`^listening on /ip4/127\.0\.0\.1/tcp/\d+/p2p/\w+/p2p-circuit/p2p/(\w+)$`)
)

// TestPrivateBotsThroughRelay: a corruption relay on loopback, and three bots that listen
// nowhere (as behind NATs nobody can dial through) and know only the relay: they meet there,
// the private table forms by its join code and completes through the relay with identical logs
// that audit, and each bot says (--verbose) that its connections to the others are relayed.
// The creator is given --relay; the others only its internet join code (CODE@RELAY).
func TestPrivateBotsThroughRelay(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	relay := start(ctx, t, "relay", "relay", "--listen", "/ip4/127.0.0.1/tcp/0")
	raddr := relay.waitLine(t, relayLine, 20*time.Second)[1]
	ps := newPlayers(t, 3)
	args := func(p player, extra ...string) []string {
		a := []string{"bot", "--data", p.data, "--out", p.log, "--json", "--timeout", "30s", "--verbose",
			"--no-mdns", "--listen", "none"}
		return append(a, extra...)
	}
	began := time.Now()
	procs := []*proc{start(ctx, t, ps[0].name, args(ps[0], "--private", "--players", "3", "--relay", raddr)...)}
	code := procs[0].waitLine(t, joinCodeLine, 20*time.Second)[1]
	internet := procs[0].waitLine(t, regexp.MustCompile(`^internet join code: (\S+)$`), 5*time.Second)[1]
	if internet != code+"@"+raddr {
		t.Fatalf("the internet join code is %q, want the code @ the relay", internet)
	}
	for _, p := range ps[1:] {
		procs = append(procs, start(ctx, t, p.name, args(p, "--join", internet)...))
	}
	ids := make([]string, len(procs))
	for i, p := range procs {
		ids[i] = p.waitLine(t, circuitLine, 20*time.Second)[1]
	}
	finish(t, procs, ps, 3)
	t.Logf("a private table of 3 bots through a relay on loopback: %v from the creator's start to the last exit", time.Since(began).Round(time.Millisecond))
	for i, p := range procs {
		for j, id := range ids {
			if i == j {
				continue
			}
			re := regexp.MustCompile(`p2p: connected to ` + id + ` \((\w+)\)`)
			m := re.FindStringSubmatch(p.stderr.String())
			if m == nil || m[1] != "relayed" {
				t.Errorf("%s says of %s: %v, want relayed", ps[i].name, ps[j].name, m)
			}
		}
	}
}

// TestPrivateBotRestarted: a node of a private table killed in the middle of the game and
// started again with the same command line and data directory finds the table's sealed
// channel again (the table is kept in its data directory) and resumes its seat; the table
// completes with identical logs. First a joiner (which could also join again while the
// creator is up), then the creator, which the others dial (which could not, without the table
// kept: it would create another).
func TestPrivateBotRestarted(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	for _, tt := range []struct {
		name           string
		victim, killAt int
	}{{"a joiner in round 1", 1, 30}, {"the creator in round 2", 0, 60}} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
			defer cancel()
			ps := newPlayers(t, 3)
			ports := freePorts(t, 3)
			args := make([][]string, 3)
			procs := make([]*proc, 3)
			var addrs []string
			var code string
			for i, p := range ps {
				a := []string{"bot", "--data", p.data, "--out", p.log, "--json", "--timeout", "30s", "--verbose",
					"--no-mdns", "--listen", fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", ports[i])}
				if i == 0 {
					a = append(a, "--private", "--players", "3")
				} else {
					a = append(a, "--join", code)
				}
				for _, addr := range addrs {
					a = append(a, "--peer", addr)
				}
				args[i] = a
				procs[i] = start(ctx, t, p.name, a...)
				addrs = append(addrs, procs[i].waitLine(t, listenLine, 20*time.Second)[1])
				if i == 0 {
					code = procs[0].waitLine(t, joinCodeLine, 20*time.Second)[1]
				}
			}
			formed := regexp.MustCompile(`table "(private-[0-9a-f]+)" formed: seat \d of 3`)
			table := ""
			for _, p := range procs {
				table = p.waitLine(t, formed, 20*time.Second)[1]
			}
			v := procs[tt.victim]
			vLog := filepath.Join(ps[tt.victim].data, "tables", table, "log")
			waitEntries(t, v, vLog, tt.killAt, 20*time.Second)
			v.kill(t)
			atKill := countEntries(t, vLog)
			procs[tt.victim] = start(ctx, t, ps[tt.victim].name+" (restarted)", args[tt.victim]...)
			procs[tt.victim].waitLine(t, regexp.MustCompile(`resumed table "`+regexp.QuoteMeta(table)+`" from \d+ saved entries`), 20*time.Second)
			out, _ := finish(t, procs, ps, 3)
			if atKill >= out.Entries {
				t.Errorf("the bot was killed with %d entries, the table has %d: it was not killed in the middle", atKill, out.Entries)
			}
		})
	}
}
