package main

// corruption play and demo without a browser: their flags, a whole game played through the
// page's JSON API and event stream, and a whole game typed in the terminal (--text).

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/ui"
	board "corruption/ui/corruption"
)

func TestPlayUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "--table", "t"}, "--players: say how many players"},
		{[]string{"play", "--table", "t", "--players", "3", "--bots", "3"}, "no room for you and your 3 bots"},
		{[]string{"play", "--table", "a/b", "--players", "3"}, "not a table name"},
		{[]string{"play", "--bots", "9"}, "--bots: 9"},
		{[]string{"play", "--ui", "8080"}, "--ui: \"8080\" is not HOST:PORT"},
		{[]string{"play", "--variant", "poker"}, "--variant"},
		{[]string{"play", "--timeout", "10ms"}, "--timeout"},
		{[]string{"play", "extra"}, "play takes no arguments"},
		{[]string{"demo", "--bots", "1"}, "--bots: 1, want 2 to 6"},
		{[]string{"demo", "--variant", "closed", "--lbb"}, "little black book"},
		{[]string{"demo", "--name", strings.Repeat("n", 100)}, "--name"},
	} {
		r := runCLI(t, tt.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
			t.Errorf("want exit 2 and %q on stderr\n%v", tt.want, r)
		}
	}
	for _, cmd := range []string{"play", "demo"} {
		r := runCLI(t, cmd, "--help")
		for _, f := range []string{"--game", "--name", "--ui", "--no-open", "--bots", "--variant", "--lbb", "--timeout", "--json"} {
			if !strings.Contains(r.stdout, f) {
				t.Errorf("%s --help does not mention %s", cmd, f)
			}
		}
	}
}

// apiClient talks to a running page's API with its session key.
type apiClient struct {
	base, key string
}

func newAPIClient(t *testing.T, url string) apiClient {
	t.Helper()
	i := strings.Index(url, "/?key=")
	if i < 0 {
		t.Fatalf("no key in %q", url)
	}
	return apiClient{base: url[:i], key: url[i+len("/?key="):]}
}

func (c apiClient) post(t *testing.T, path string, body any) (int, string) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Corruption-Key", c.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// events opens the page's event stream with the session key, as lines, and closes it with
// stop (or when the test ends, or ctx).
func (c apiClient) events(ctx context.Context, t *testing.T) (events *bufio.Scanner, stop func()) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.base+"/api/events", nil)
	req.Header.Set("X-Corruption-Key", c.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	events = bufio.NewScanner(resp.Body)
	events.Buffer(make([]byte, 1<<20), 1<<20)
	return events, func() { resp.Body.Close() }
}

// waitLobby follows the page's events until its lobby lists the table named.
func (c apiClient) waitLobby(ctx context.Context, t *testing.T, table string) {
	t.Helper()
	events, _ := c.events(ctx, t)
	for events.Scan() {
		line, ok := strings.CutPrefix(events.Text(), "data: ")
		if !ok {
			continue
		}
		var st ui.State
		if json.Unmarshal([]byte(line), &st) != nil || st.Lobby == nil {
			continue
		}
		for _, l := range st.Lobby.Tables {
			if l.Table == table {
				return
			}
		}
	}
	t.Fatalf("the lobby never lists table %q (%v)", table, events.Err())
}

// TestPlayLobbyNetwork: the waiting screen says how the node finds others, the page may ask it
// to dial an address (a bad one is refused with the reason), and Leave, before the table
// forms, ends the command with the reason.
func TestPlayLobbyNetwork(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p := start(ctx, t, "play", "play", "--name", "ann", "--table", "t1", "--players", "3", "--no-mdns",
		"--listen", "/ip4/127.0.0.1/tcp/0", "--no-open")
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	if first := strings.SplitN(p.stderr.String(), "\n", 2)[0]; !openLine.MatchString(first) {
		t.Errorf("the first line is %q, not the page's address", first)
	}
	p.waitLine(t, listenLine, 20*time.Second)
	api := newAPIClient(t, url)
	events, stop := api.events(ctx, t)
	var st ui.State
	for events.Scan() {
		if line := events.Text(); strings.HasPrefix(line, "data: ") {
			st = ui.State{}
			json.Unmarshal([]byte(line[len("data: "):]), &st)
			if st.Mode == "waiting" && st.Network != nil {
				break
			}
		}
	}
	stop()
	if st.Network == nil {
		t.Fatalf("the page never shows the waiting screen with the network: %+v (%v)", st, events.Err())
	}
	if n := st.Network; n.MDNS || n.Peers != 0 || len(n.Addrs) == 0 || !n.Dial {
		t.Errorf("network: %+v", n)
	}
	if code, body := api.post(t, "/api/dial", map[string]string{"addr": "/ip4/127.0.0.1/tcp/1"}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "/p2p/") {
		t.Errorf("dial a bad address: %d %s", code, body)
	}
	if code, body := api.post(t, "/api/quit", struct{}{}); code != http.StatusOK {
		t.Fatalf("leave: %d %s", code, body)
	}
	if code := p.wait(t, 30*time.Second); code != 1 || !strings.Contains(p.stderr.String(), `table "t1" had not formed yet`) {
		t.Errorf("leaving while waiting: exit %d\n%s", code, p.stderr.String())
	}
}

// TestDemoAPI: corruption demo against two bots, played to the end through the JSON API: every
// decision comes on the event stream, is answered with its first legal choice (after one
// illegal try, refused with a reason), and the results are the node's outcome.
func TestDemoAPI(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p := start(ctx, t, "demo", "demo", "--bots", "2", "--no-open", "--json", "--timeout", "30s")
	api := newAPIClient(t, p.waitLine(t, openLine, 20*time.Second)[1])

	req, _ := http.NewRequestWithContext(ctx, "GET", api.base+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("the event stream without the key: %d, want 403", resp.StatusCode)
	}
	events, _ := api.events(ctx, t)
	// The page's state: the shell's result, and Corruption's decision.
	var st struct {
		Decision *struct {
			ID int `json:"id"`
			board.Decision
		} `json:"decision"`
		Result *ui.ResultState `json:"result"`
	}
	last, decisions, refused := 0, 0, false
	kinds := map[string]int{}
	for events.Scan() {
		line := events.Text()
		if !strings.HasPrefix(line, "data: ") {
			continue
		}
		st.Decision, st.Result = nil, nil
		if err := json.Unmarshal([]byte(line[len("data: "):]), &st); err != nil {
			t.Fatal(err)
		}
		if st.Result != nil {
			break
		}
		d := st.Decision
		if d == nil || d.ID <= last {
			continue
		}
		last = d.ID
		decisions++
		kinds[d.Kind]++
		move := board.MoveRequest{ID: d.ID, Kind: d.Kind}
		switch d.Kind {
		case "place":
			if !refused {
				code, body := api.post(t, "/api/move", board.MoveRequest{ID: d.ID, Text: "kill 99"})
				if code != http.StatusUnprocessableEntity || !strings.Contains(body, "not to kill") {
					t.Errorf("an illegal move: %d %s", code, body)
				}
				refused = true
			}
			for _, c := range d.Cards {
				if len(c.Spots) > 0 {
					move.Card, move.Spot = c.Card, c.Spots[0]
					break
				}
			}
		case "assign":
			move.Contract = d.Assign[0].ID
		case "kill":
			move.Index = d.Targets[0]
		case "remove":
			move.Kind = "pass"
		case "faceup":
			move.Positions = []int{1}
		}
		if code, body := api.post(t, "/api/move", move); code != http.StatusOK {
			t.Fatalf("decision %d (%s): %+v refused: %d %s", d.ID, d.Kind, move, code, body)
		}
	}
	if st.Result == nil {
		t.Fatalf("the event stream ended before the results: %v", events.Err())
	}
	r := st.Result
	if !r.Finished || !r.Valid || len(r.Scores) != 3 {
		t.Errorf("results: %+v", r)
	}
	if kinds["place"] != 24 {
		t.Errorf("the person placed %d cards, want 24 (decisions %v)", kinds["place"], kinds)
	}
	if code, body := api.post(t, "/api/quit", struct{}{}); code != http.StatusOK {
		t.Fatalf("quit: %d %s", code, body)
	}
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("demo exited %d", code)
	}
	var out outcome
	if err := json.Unmarshal([]byte(lastLine(p.stdout.String())), &out); err != nil {
		t.Fatalf("demo --json: %v\n%s", err, p.stdout.String())
	}
	if fmt.Sprint(out.Scores) != fmt.Sprint(r.Scores) || out.Digest != r.Digest || !out.Finished {
		t.Errorf("the page's results %+v are not the node's outcome %+v", r, out)
	}
	t.Logf("%d decisions %v; scores %v", decisions, kinds, out.Scores)
}

// textDemo is corruption demo --text with a terminal in lang, played by answer: it is given
// each line the command prints and what it has printed so far, and returns the lines to type.
// It returns what the command printed on stdout and stderr, and how it ended.
func textDemo(t *testing.T, lang string, answer func(line, sofar string) []string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"demo", "--text", "--bots", "2", "--timeout", "30s"}, args...)...)
	cmd.Env = append(os.Environ(), "LANG="+lang, "LC_ALL=", "LC_MESSAGES=", "LANGUAGE=")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	wait := func() error {
		var err error
		once.Do(func() { err = cmd.Wait() })
		return err
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		wait()
	})
	var out strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		out.WriteString(line + "\n")
		for _, l := range answer(line, out.String()) {
			if l == "^C" {
				cmd.Process.Signal(os.Interrupt)
				continue
			}
			fmt.Fprintln(stdin, l)
		}
	}
	err = wait()
	noPanic(t, append([]string{"demo", "--text"}, args...), out.String()+stderr.String())
	return out.String(), stderr.String(), err
}

// TestDemoText: corruption demo --text, played in the terminal: each prompt gives an example
// move, which the test types; a mistyped and an illegal move are refused and asked again.
func TestDemoText(t *testing.T) {
	t.Parallel()
	prompts, errors := 0, 0
	out, stderr, err := textDemo(t, "C", func(line, _ string) []string {
		var typed []string
		switch {
		case strings.HasPrefix(line, "  for example: "):
			if prompts == 0 {
				typed = append(typed, "4000 atlantis", "assign monument")
			}
			prompts++
			typed = append(typed, strings.TrimPrefix(line, "  for example: "))
		case strings.Contains(line, "error: "):
			errors++
		}
		return typed
	}, "--json")
	if err != nil {
		t.Fatalf("demo --text: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr)
	}
	if errors != 2 || !strings.Contains(out, `Unknown place "atlantis"`) || !strings.Contains(out, "not to assign") {
		t.Errorf("%d errors shown, want the 2 bad moves refused with reasons\n%s", errors, out)
	}
	for _, want := range []string{"== Round 4 ==", "Your hand:", "City Hall", "Scores:", "Audit: the log checks", "(you)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal never shows %q", want)
		}
	}
	var o outcome
	if err := json.Unmarshal([]byte(lastLine(out)), &o); err != nil || !o.Finished || len(o.Scores) != 3 {
		t.Errorf("outcome %+v, %v", o, err)
	}
	t.Logf("%d prompts answered; scores %v", prompts, o.Scores)
}

// TestDemoTextWords: the terminal follows LANG (Spanish here), takes moves typed by the start
// of their names, and at the end the outcome names the players and the winners, each by name
// (isolated) and seat.
func TestDemoTextWords(t *testing.T) {
	t.Parallel()
	out, stderr, err := textDemo(t, "es_ES.UTF-8", func(line, _ string) []string {
		if strings.HasPrefix(line, "  por ejemplo: ") {
			// The example's place by its first four letters: "1000 cour" for "1000 courthouse".
			f := strings.Fields(strings.TrimPrefix(line, "  por ejemplo: "))
			if len(f) == 2 && !strings.HasPrefix(f[1], "swiss:") && len(f[1]) > 4 {
				f[1] = f[1][:4]
			}
			return []string{strings.Join(f, " ")}
		}
		return nil
	}, "--name", "kim")
	if err != nil {
		t.Fatalf("demo --text: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr)
	}
	for _, want := range []string{"== Ronda 4 ==", "Tu mano:", "Alcaldía", "Puntuaciones:", "Auditoría: el registro es correcto"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal never shows %q", want)
		}
	}
	if !regexp.MustCompile(`\x{2068}kim\x{2069} \(asiento \d\) \(tú\)`).MatchString(out) {
		t.Errorf("the terminal never shows the person by name, seat and (tú):\n%s", out)
	}
	shown := regexp.MustCompile(`\x{2068}(kim|bot \d)\x{2069} \(seat \d\)`)
	winners := regexp.MustCompile(`(?m)^Winners: (.+)$`).FindStringSubmatch(out)
	if winners == nil || !shown.MatchString(winners[1]) || regexp.MustCompile(`\d|\[`).MatchString(shown.ReplaceAllString(winners[1], "")) {
		t.Errorf("the winners are not named: %q\n%s", winners, out)
	}
	if !regexp.MustCompile(`(?m)^  \x{2068}kim\x{2069} \(seat \d\) `).MatchString(out) {
		t.Errorf("the outcome does not name the players:\n%s", out)
	}
}

// TestDemoTextInterrupted: Ctrl-C in the terminal says that the person left, and names who the
// table was waiting for.
func TestDemoTextInterrupted(t *testing.T) {
	t.Parallel()
	prompts := 0
	out, stderr, err := textDemo(t, "C", func(line, _ string) []string {
		if strings.HasPrefix(line, "  for example: ") {
			prompts++
			if prompts == 3 {
				return []string{"^C"}
			}
			return []string{strings.TrimPrefix(line, "  for example: ")}
		}
		return nil
	}, "--name", "kim")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("demo --text interrupted: %v, want exit 1\nstdout:\n%s\nstderr:\n%s", err, out, stderr)
	}
	if !strings.Contains(out, "You left the table before the end of the game.") || !strings.Contains(stderr, "interrupted: table") ||
		!regexp.MustCompile(`waiting for \x{2068}kim\x{2069} \(seat \d\) to write its move`).MatchString(stderr) {
		t.Errorf("the interruption is not told in words:\nstdout:\n%s\nstderr:\n%s", out, stderr)
	}
}
