package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"corruption/protocol"
	"corruption/ui"
)

// TestBotsPauseAndResume: three bot processes on loopback, one of which asks to pause once its
// log holds 40 entries (--pause-at): the others agree, and every process exits 0 with the
// table paused at the same entry, its data directory keeping the record. The same three
// commands, started again, resume the table and play it to the end: identical logs that audit.
func TestBotsPauseAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*tableTimeout)
	defer cancel()
	table := tableName(t)
	ps := newPlayers(t, 3)
	ports := freePorts(t, 3)
	args := make([][]string, 3)
	procs := make([]*proc, 3)
	var addrs []string
	for i := range ps {
		extra := []string{"--no-mdns", "--listen", fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", ports[i])}
		for _, a := range addrs {
			extra = append(extra, "--peer", a)
		}
		if i == 0 {
			extra = append(extra, "--pause-at", "40")
		}
		args[i] = botArgs(table, ps[i], []string{"--players", "3"}, extra...)
		procs[i] = start(ctx, t, ps[i].name, args[i]...)
		m := procs[i].waitLine(t, listenLine, 20*time.Second)
		if m[2] != strconv.Itoa(ports[i]) {
			t.Fatalf("%s listens on %s, want port %d", ps[i].name, m[1], ports[i])
		}
		addrs = append(addrs, m[1])
	}
	entries := -1
	for i, p := range procs {
		if code := p.wait(t, tableTimeout); code != 0 {
			t.Fatalf("%s exited %d, want 0 (paused)\nstdout:\n%s\nstderr:\n%s", p.name, code, p.stdout.String(), p.stderr.String())
		}
		var o struct {
			Paused   bool `json:"paused"`
			Finished bool `json:"finished"`
			Entries  int  `json:"entries"`
		}
		if err := json.Unmarshal([]byte(p.stdout.String()), &o); err != nil {
			t.Fatalf("%s: stdout is not one JSON outcome (%v):\n%s", p.name, err, p.stdout.String())
		}
		if !o.Paused || o.Finished || o.Entries < 40 || (entries >= 0 && o.Entries != entries) {
			t.Fatalf("%s: outcome %+v, want paused at the same entry as the others (%d), 40 or more", p.name, o, entries)
		}
		entries = o.Entries
		if _, err := os.Stat(filepath.Join(ps[i].data, "tables", table, "paused")); err != nil {
			t.Errorf("%s keeps no record of the pause: %v", p.name, err)
		}
	}
	if t.Failed() {
		return
	}

	resumed := regexp.MustCompile(`table "` + regexp.QuoteMeta(table) + `" was paused at entry ` + strconv.Itoa(entries) + `: resuming it`)
	for i := range ps {
		procs[i] = start(ctx, t, ps[i].name+" (resumed)", args[i]...)
	}
	for _, p := range procs {
		p.waitLine(t, resumed, 20*time.Second)
	}
	out, _ := finish(t, procs, ps, 3)
	if out.Entries <= entries {
		t.Errorf("the resumed table ended with %d entries, it was paused at %d", out.Entries, entries)
	}
}

// TestPausedWords: a paused table ends bot and play with a line that says so and the command
// that resumes it, or that it cannot resume from a temporary directory.
func TestPausedWords(t *testing.T) {
	var b strings.Builder
	s := &session{}
	saved := os.Args
	defer func() { os.Args = saved }()
	// A table chosen in the lobby, of another game than --game's, with its own bots: the
	// command's game, bots and settings give way to the table's.
	os.Args = []string{"/usr/bin/corruption", "play", "--name", "ann o'neil", "--game", "corruption", "--lbb", "--variant=free-stud", "--bots", "1", "--level", "easy", "--data", "/tmp/d"}
	r := &played{out: &pauseOutcome, seat: seat{}}
	r.seat.choice = ui.TableChoice{Table: "friday night", Game: "kingdoms", Players: 4, Bots: 2, Level: "hard"}
	s.printPaused(&b, r)
	want := `corruption play --name 'ann o'\''neil' --data /tmp/d --game kingdoms --table 'friday night' --players 4 --bots 2 --level hard`
	if !strings.Contains(b.String(), "is paused at entry 57") || !strings.Contains(b.String(), want) {
		t.Errorf("printPaused says:\n%s\nwant the command %s", b.String(), want)
	}
	b.Reset()
	s.tmpData = "/tmp/corruption-1"
	s.printPaused(&b, r)
	if !strings.Contains(b.String(), "cannot resume") {
		t.Errorf("printPaused with a temporary directory says:\n%s", b.String())
	}
}

var pauseOutcome = protocol.Outcome{Table: "friday night", Paused: true, Entries: 57}

// TestPlayPausePage: corruption play --data with two local bots, paused from the page: at the
// person's first decision POST /api/pause asks, the bots agree, the results say the table is
// paused and give the command that resumes it (the same, with --data), and the command exits 0
// with a paused outcome. That command, started again, resumes the table, bots and all: it says
// so and asks the person's next decision.
func TestPlayPausePage(t *testing.T) {
	if testing.Short() {
		t.Skip("a page and two bot nodes: skipped in -short mode")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	data := filepath.Join(t.TempDir(), "ann")
	args := []string{"play", "--name", "ann", "--data", data, "--table", "t", "--players", "3", "--bots", "2",
		"--no-open", "--json", "--timeout", "30s", "--no-mdns"}
	type state struct {
		Decision *struct {
			ID int `json:"id"`
		} `json:"decision"`
		Pause  *ui.PauseState  `json:"pause"`
		Result *ui.ResultState `json:"result"`
		Table  *ui.TableState  `json:"table"`
	}
	// follow reads the page's events until until holds of a state, which it returns.
	follow := func(p *proc, until func(api apiClient, st state) bool) (apiClient, state) {
		t.Helper()
		api := newAPIClient(t, p.waitLine(t, openLine, 20*time.Second)[1])
		events, stop := api.events(ctx, t)
		defer stop()
		for events.Scan() {
			line := events.Text()
			if !strings.HasPrefix(line, "data: ") {
				continue
			}
			var st state
			if err := json.Unmarshal([]byte(line[len("data: "):]), &st); err != nil {
				t.Fatal(err)
			}
			if until(api, st) {
				return api, st
			}
		}
		t.Fatalf("the event stream ended: %v\nstderr:\n%s", events.Err(), p.stderr.String())
		return api, state{}
	}

	p := start(ctx, t, "play", args...)
	asked := false
	api, st := follow(p, func(api apiClient, st state) bool {
		if st.Decision != nil && st.Pause != nil && !asked {
			asked = true
			if code, body := api.post(t, "/api/pause", map[string]bool{"agree": true}); code != http.StatusOK {
				t.Fatalf("POST /api/pause: %d %s", code, body)
			}
		}
		return st.Result != nil
	})
	r := st.Result
	if r.Status != "paused" || !strings.Contains(r.Resume, "--data "+data) || !strings.Contains(r.Resume, "corruption play") {
		t.Fatalf("the results of the paused table: %+v", r)
	}
	if code, body := api.post(t, "/api/quit", struct{}{}); code != http.StatusOK {
		t.Fatalf("quit: %d %s", code, body)
	}
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("play exited %d, want 0\nstderr:\n%s", code, p.stderr.String())
	}
	var out struct {
		Paused  bool `json:"paused"`
		Entries int  `json:"entries"`
	}
	if err := json.Unmarshal([]byte(lastLine(p.stdout.String())), &out); err != nil || !out.Paused || out.Entries != r.Entries {
		t.Fatalf("play --json: %+v %v\n%s", out, err, p.stdout.String())
	}

	p = start(ctx, t, "play (resumed)", args...)
	resumed := regexp.MustCompile(`table "t" was paused at entry ` + strconv.Itoa(out.Entries) + `: resuming it`)
	p.waitLine(t, resumed, 20*time.Second)
	_, st = follow(p, func(_ apiClient, st state) bool {
		return st.Decision != nil && st.Table != nil && st.Table.Entries >= out.Entries || st.Result != nil
	})
	if st.Result != nil {
		t.Fatalf("the resumed table ended at once: %+v", st.Result)
	}
	p.kill(t)
}
