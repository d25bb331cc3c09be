package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"corruption/engine"
	"corruption/p2p/bridge"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	bus "corruption/protocol/tablenet/memnode"
	"corruption/seat"
	"corruption/ui"
	"corruption/ui/browsertest"
)

// The browser seat in headless Chromium, with a phone's viewport and touch, against bot nodes:
// the page at a laptop's phones handler (Handler) and bridge (bridge.Hub), the hub's node and
// the bots on an in-memory network (no libp2p). The seat plays by itself (&bot=1): the
// person's clicks on the boards are the laptop page's tests' (the same page, the same API).

var wide = flag.Bool("phone.wide", false, "the browser seat's tests at every game's largest table too")

var nopage = flag.Bool("phone.nopage", false, "the browser seat without its page (&page=0): to time the seat alone")

// phone starts a fresh headless Chromium with a phone's viewport and touch.
func phone(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	// The figure tools stand in for a phone's browser: the whole of it (ui/browsertest).
	chromiumPath := browsertest.Need(t, *figures || *tapsTable != "" || *traceTable != "" || *profileTable != "")
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(chromiumPath), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(390, 844))
	bctx, cancel := chromedp.NewContext(actx)
	var mu sync.Mutex
	done := false
	t.Cleanup(func() {
		mu.Lock()
		done = true
		mu.Unlock()
		cancel()
		cancelAlloc()
	})
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatalf("cannot start %s: %v", chromiumPath, err)
	}
	chromedp.Listen(bctx, func(ev any) { // what the page says, but the node's debug lines
		var line string
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeDebug {
				return
			}
			for _, a := range e.Args {
				line += " " + strings.Trim(string(a.Value), `"`)
			}
			line = "page " + string(e.Type) + ":" + line
		case *runtime.EventExceptionThrown:
			line = "page exception: " + e.ExceptionDetails.Text
			if x := e.ExceptionDetails.Exception; x != nil {
				line += " " + x.Description
			}
		default:
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if !done {
			t.Log(line)
		}
	})
	return bctx
}

// laptop is the laptop's side of a test: the phones' listener on loopback, its hub, and its
// node on the in-memory network.
type laptop struct {
	url   string // the phones' address, with the token
	net   *bus.Bus
	hub   *bridge.Hub
	close func()
}

func newLaptop(t *testing.T) *laptop {
	t.Helper()
	n := bus.New()
	hub := bridge.NewHub(n.Member(), tablenet.PhonesPolicy(nil), t.Logf)
	page, err := Handler()
	if err != nil {
		t.Fatal(err)
	}
	const token = "test-token"
	mux := http.NewServeMux()
	mux.Handle(bridge.BridgePath, hub.Handler(func() string { return token }))
	mux.Handle("/", page)
	if profiledWasm != nil { // TestPhoneProfile's .wasm, with its functions' names
		mux.HandleFunc("GET "+WasmPath, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/wasm")
			w.Write(profiledWasm)
		})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	l := &laptop{url: fmt.Sprintf("http://%s/?t=%s", ln.Addr(), token), net: n, hub: hub}
	l.close = func() { srv.Close(); hub.Close() }
	t.Cleanup(l.close)
	return l
}

// seatURL is the phone's address that seats it at choice at once, playing by itself.
func (l *laptop) seatURL(t *testing.T, choice ui.TableChoice) string {
	b, err := json.Marshal(choice)
	if err != nil {
		t.Fatal(err)
	}
	extra := ""
	if *nopage {
		extra = "&page=0"
	}
	return l.url + "&name=ann&bot=1" + extra + "&table=" + base64.RawURLEncoding.EncodeToString(b)
}

// botNode is one bot's node at a table: its Store, and how its run ended.
type botNode struct {
	store *protocol.Store
	out   *protocol.Outcome
	err   error
}

// bots starts n bot nodes at the table on the laptop's network; wait waits for them all.
func (l *laptop) bots(t *testing.T, ctx context.Context, choice ui.TableChoice, n int, onChange func(protocol.Status)) (nodes []*botNode, wait func()) {
	return l.botsWith(t, ctx, choice, n, onChange, nil)
}

// botsWith is bots, each bot's player wrapped by wrap (nil: none), and its node's configuration
// adjusted by adjust (nil: none).
func (l *laptop) botsWith(t *testing.T, ctx context.Context, choice ui.TableChoice, n int, onChange func(protocol.Status), wrap func(engine.Player) engine.Player,
	adjust ...func(i int, cfg *protocol.NodeConfig)) (nodes []*botNode, wait func()) {
	var wg sync.WaitGroup
	for i := range n {
		s, err := protocol.OpenStore(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		key, err := s.Identity()
		if err != nil {
			t.Fatal(err)
		}
		b := &botNode{store: s}
		nodes = append(nodes, b)
		tn, err := tablenet.JoinTable(l.net.Member(), choice.Table)
		if err != nil {
			t.Fatal(err)
		}
		var change func(protocol.Status)
		if i == 0 {
			change = onChange
		}
		var player engine.Player = standIn(engine.LookupStandIn(choice.Game), uint64(i+1)<<32)
		if wrap != nil {
			player = wrap(player)
		}
		cfg := protocol.NodeConfig{Table: choice.Table, Game: choice.Game, Config: choice.Config,
			Players: choice.Players, Name: fmt.Sprintf("bot%d", i+1), Timeout: seat.PhoneClock.Timeout, FormTimeout: 2 * time.Minute,
			Identity: key, Store: s, Net: tn, Player: player, OnChange: change}
		for _, a := range adjust {
			a(i, &cfg)
		}
		node, err := protocol.NewNode(cfg)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.out, b.err = node.Run(ctx)
		}()
	}
	return nodes, wg.Wait
}

type standInPlayer struct {
	f engine.StandIn
	n uint64
}

func standIn(f engine.StandIn, seed uint64) *standInPlayer { return &standInPlayer{f: f, n: seed} }

func (p *standInPlayer) Decide(_ context.Context, g engine.Game, s int) (engine.Action, error) {
	p.n++
	return p.f(g, s, p.n)
}

// defaultChoice is a table of game at players with the game's default settings.
func defaultChoice(t *testing.T, name, game string, players int) ui.TableChoice {
	t.Helper()
	form := json.RawMessage(`{}`)
	if game == "corruption" {
		form = json.RawMessage(`{"variant":"standard"}`)
	}
	for _, b := range Boards() {
		if b.Game() == game {
			config, err := b.ParseSettings(form)
			if err != nil {
				t.Fatal(err)
			}
			return ui.TableChoice{Table: name, Game: game, Players: players, Config: config}
		}
	}
	t.Fatalf("no board of %s", game)
	return ui.TableChoice{}
}

// resultState is the seat's state once it has a result, as the page gets it in process.
const resultState = `new Promise((resolve) => {
  const tick = () => corruptionSeat.request('GET', '/api/state?lang=en', '').then((r) => {
    if (JSON.parse(r.body).result) resolve(r.body); else setTimeout(tick, 200);
  });
  tick();
})`

// seatState is the seat's state once it has a result, as the page gets it in process.
func seatState(ctx context.Context) (*ui.State, error) {
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](resultState, chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, err
	}
	var st ui.State
	return &st, json.Unmarshal([]byte(text), &st)
}

// checkOver checks that the page shows a finished table whose log audits, and that every bot
// finished it with a log that audits.
func checkOver(t *testing.T, bctx context.Context, nodes []*botNode, table string) {
	t.Helper()
	st, err := seatState(bctx)
	if err != nil {
		t.Fatal(err)
	}
	if r := st.Result; r == nil || !r.Finished || !r.Valid {
		t.Fatalf("the phone's table: %+v", st.Result)
	}
	// In the browser's storage: the table's seed wiped, its log kept.
	kept, err := chromedp.Run(bctx, chromedp.Evaluate[[]int](fmt.Sprintf(`Promise.all(['seed', 'log'].map((f) =>
	  corruptionIDB.read(corruptionSeat.scope, 'tables/%s/' + f).then((b) => b === null ? -1 : b.length)))`, table), chromedp.EvalAwaitPromise))
	if err != nil || len(kept) != 2 || kept[0] != -1 || kept[1] < 1000 {
		t.Errorf("the browser's storage once the table is over: seed and log %v (%v); want the seed gone (-1), the log kept", kept, err)
	}
	for i, b := range nodes {
		if b.err != nil || b.out == nil || !b.out.Finished || b.out.Verdict != nil {
			t.Errorf("bot %d: %+v, %v", i+1, b.out, b.err)
			continue
		}
		log, err := b.store.ReadTableFile(table, "log")
		if err == nil {
			var rep *protocol.Report
			if rep, err = protocol.Audit(bytes.NewReader(log), engine.Options{}); err == nil && !rep.Valid {
				err = fmt.Errorf("%s", rep.Problem)
			}
		}
		if err != nil {
			t.Errorf("bot %d's log: %v", i+1, err)
		}
	}
}

// TestPhoneSeatPlays: a phone's browser seat plays a whole table of each game with bot nodes,
// through the phones' page and the bridge; its page shows the table finished with an audit
// that checks, and every bot's log audits. By default Corruptia alone, at its smallest table:
// cmd/corruption's TestBrowserPhonesLaptopAndBotAtOneTable checks the same of Corruption's
// browser seats (two of them), and TestBrowserPhoneDemo plays Corrupted Kingdoms in the
// browser through a reload, a frozen page and a dropped Wi-Fi. -phone.wide: every game at its
// smallest and largest table.
func TestPhoneSeatPlays(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser: -short (the inner loop) leaves the browsers to the README's test command")
	}
	for _, game := range []string{"corruption", "kingdoms", "corruptia"} {
		rules, err := engine.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := rules.Players()
		sizes := []int{lo}
		switch {
		case *wide && hi != lo:
			sizes = append(sizes, hi)
		case !*wide && game != "corruptia":
			sizes = nil
		}
		for _, n := range sizes {
			t.Run(fmt.Sprintf("%s-%d", game, n), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				defer cancel()
				l := newLaptop(t)
				choice := defaultChoice(t, fmt.Sprintf("phone-%s-%d", game, n), game, n)
				nodes, wait := l.bots(t, ctx, choice, n-1, nil)
				bctx := phone(t, ctx)
				// The phone's vibrations, counted (the browser's own needs a touch first).
				if _, err := chromedp.Call(bctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
					Source: `navigator.vibrate = (p) => { globalThis.vibrations = (globalThis.vibrations || 0) + 1; return true; };`}); err != nil {
					t.Fatal(err)
				}
				began := time.Now()
				if err := chromedp.Do(bctx, chromedp.Navigate(l.seatURL(t, choice))); err != nil {
					t.Fatal(err)
				}
				if *nopage { // the seat alone: the bots' end is the table's
					wait()
					t.Logf("the table without the phone's page: %.1fs, %d entries", time.Since(began).Seconds(), nodes[0].out.Entries)
					return
				}
				// (By interval: chromedp's default polls at every frame, which keeps the browser drawing
				// sixty frames a second through the whole table.)
				if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.mode === 'over'`, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(4*time.Minute))); err != nil {
					shown, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`JSON.stringify(document.body.dataset) + ' ' + document.getElementById('main').innerText.slice(0, 300)`))
					t.Logf("the page: %s", shown)
					t.Fatalf("the phone's table did not end: %v", err)
				}
				wait()
				t.Logf("the table with the phone's page: %.1fs, %d entries", time.Since(began).Seconds(), nodes[0].out.Entries)
				checkOver(t, bctx, nodes, choice.Table)
				// The person was told each turn: the phone vibrated, and the mark is gone once
				// no decision is due.
				told, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(globalThis.vibrations || 0) + ' ' + (document.body.dataset.turn || '-') + ' ' + document.title`))
				if err != nil || !regexp.MustCompile(`^[1-9]\d* - [^●]`).MatchString(told) {
					t.Errorf("the turns told (vibrations, the turn's mark, the title): %q, %v; want some vibrations, no mark left", told, err)
				}
			})
		}
	}
}
