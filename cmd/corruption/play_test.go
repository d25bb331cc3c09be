package main

// corruption play and demo without a browser: their flags, a whole game played through the
// page's JSON API and event stream, and a whole game typed in the terminal (--text).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
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

// TestDemoAPI: corruption demo against two bots, played to the end through the JSON API: every
// decision comes on the event stream, is answered with its first legal choice (after one
// illegal try, refused with a reason), and the results are the node's outcome.
func TestDemoAPI(t *testing.T) {
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
	req.Header.Set("X-Corruption-Key", api.key)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewScanner(resp.Body)
	events.Buffer(make([]byte, 1<<20), 1<<20)
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

// TestDemoText: corruption demo --text, played in the terminal: each prompt gives an example
// move, which the test types; a mistyped and an illegal move are refused and asked again.
func TestDemoText(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "demo", "--text", "--bots", "2", "--json", "--timeout", "30s")
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
	prompts, errors := 0, 0
	for sc.Scan() {
		line := sc.Text()
		out.WriteString(line + "\n")
		switch {
		case strings.HasPrefix(line, "  for example: "):
			if prompts == 0 {
				fmt.Fprintln(stdin, "4000 atlantis")
				fmt.Fprintln(stdin, "assign monument")
			}
			prompts++
			fmt.Fprintln(stdin, strings.TrimPrefix(line, "  for example: "))
		case strings.Contains(line, "error: "):
			errors++
		}
	}
	err = wait()
	noPanic(t, []string{"demo", "--text"}, out.String()+stderr.String())
	if err != nil {
		t.Fatalf("demo --text: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), stderr.String())
	}
	if errors != 2 || !strings.Contains(out.String(), `unknown place "atlantis"`) || !strings.Contains(out.String(), "not to assign") {
		t.Errorf("%d errors shown, want the 2 bad moves refused with reasons\n%s", errors, out.String())
	}
	for _, want := range []string{"== Round 4 ==", "Your hand:", "City Hall", "Scores:", "Audit: the log checks"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the terminal never shows %q", want)
		}
	}
	var o outcome
	if err := json.Unmarshal([]byte(lastLine(out.String())), &o); err != nil || !o.Finished || len(o.Scores) != 3 {
		t.Errorf("outcome %+v, %v", o, err)
	}
	t.Logf("%d prompts answered; scores %v", prompts, o.Scores)
}
