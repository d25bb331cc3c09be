//go:build js && wasm

// Command seat is the browser seat: a person's seat at a table, compiled to WebAssembly
// (GOOS=js GOARCH=wasm) and run in the page that a laptop's phones listener serves (package
// seat/web embeds it). It is the same Go as a native seat: protocol.Node, the games, crypto,
// and the page's server in process; its network is the bridge to the laptop
// (p2p/bridge.Client) and its data the browser's IndexedDB (protocol/browserstore). Its keys
// are made here and go nowhere.
//
// The page (seat/web's loader, seat.js) loads it before the page's modules, and waits for it
// to register globalThis.corruptionSeat, the in-process transport that ui/static/api.js
// expects, and to call globalThis.corruptionSeatReady().
//
// The page's address says what to do: ?t=TOKEN (required: the bridge's admission), &name=NAME
// (the person's name at the table; without it the page asks it first, and the seat keeps it),
// &table=CHOICE (a table to sit at at once, as the laptop's `demo --phones` gives it:
// base64url of the JSON of a ui.TableChoice), &bot=1 (the seat plays by itself with the
// game's stand-in bot: browser tests, figures, a table to watch; it names itself phone-XXXX).
//
// Before it keeps or reads anything, the seat connects to the laptop: what it keeps (its
// identity, its tables, the person's name) is kept under the laptop's fingerprint
// (bridge.Fingerprint of the peer id in the laptop's welcome), so that another machine at the
// same address and port never reads it.
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"syscall/js"

	"corruption/p2p/bridge"
	"corruption/protocol"
	"corruption/protocol/browserstore"
	"corruption/seat"
	"corruption/ui"
	"corruption/ui/games"
)

func main() {
	if err := run(); err != nil {
		fail(err)
	}
	select {} // the page's callbacks stay served
}

func run() error {
	href := js.Global().Get("location").Get("href").String()
	u, err := url.Parse(href)
	if err != nil {
		return fmt.Errorf("the page's address: %v", err)
	}
	bridgeURL, err := bridge.BridgeURL(href)
	if err != nil {
		return err
	}
	given, err := givenTable(u.Query().Get("table"))
	if err != nil {
		return err
	}
	client, err := bridge.NewClient(bridge.ClientConfig{Dial: bridge.DialWebSocket(bridgeURL),
		OnConnection: func(up bool) { setConnected(up) }, OnTrouble: trouble})
	if err != nil {
		return err
	}
	// The laptop first: what the seat keeps is bound to the laptop it reached (its peer id's
	// fingerprint, from the laptop's own welcome), so that another machine at the same
	// address never reads this one's seat (docs/SECURITY.md, "What a phone keeps").
	if err := client.WaitConnected(context.Background()); err != nil {
		return err
	}
	fp := bridge.Fingerprint(client.Node())
	setLaptop(protocol.Printable(client.Label()), fp)
	b, err := browserstore.OpenSeat(fp)
	if err != nil {
		return err
	}
	store, err := protocol.NewStore(b)
	if err != nil {
		return err
	}
	key, err := store.Identity()
	if err != nil {
		return err
	}
	client.Identify(key) // the laptop knows the seat by its key across reconnections
	autoplay := u.Query().Get("bot") == "1"
	name := u.Query().Get("name")
	if name != "" && protocol.CheckName(name) != nil {
		name = "" // the page asks it instead
	}
	if name == "" && autoplay {
		name = "phone-" + b.Seat()[:4]
	}
	cfg := seat.Config{Store: store, Net: client, Name: name, Given: given,
		Boards:   games.Boards(),
		OnServer: func(srv *ui.Server) { register(ui.NewInProcess(srv), b.Seat()) },
		OnTurn:   func(due bool) { turn(due, !autoplay) },
		Autoplay: autoplay,
		Laptop:   client,
		Logf:     func(f string, a ...any) { js.Global().Get("console").Call("debug", fmt.Sprintf(f, a...)) },
		Notef:    func(f string, a ...any) { js.Global().Get("console").Call("info", fmt.Sprintf(f, a...)) },
	}
	go func() {
		err := seat.Run(context.Background(), cfg)
		store.Close()
		client.Close()
		if err != nil {
			fail(err)
		}
	}()
	return nil
}

// givenTable reads the page's &table=: base64url (unpadded) of a ui.TableChoice's JSON.
func givenTable(s string) (ui.TableChoice, error) {
	var c ui.TableChoice
	if s == "" {
		return c, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err == nil && c.Table == "" {
		err = fmt.Errorf("no table named")
	}
	if err != nil {
		return c, fmt.Errorf("the page's address names a table that cannot be read (table=%.40q): %v", s, err)
	}
	return c, nil
}

// fail shows what stopped the seat in the page (the loader's corruptionSeatFailed).
func fail(err error) {
	if f := js.Global().Get("corruptionSeatFailed"); f.Type() == js.TypeFunction {
		f.Invoke(err.Error())
		return
	}
	js.Global().Get("console").Call("error", err.Error())
}

// trouble tells the loader why the seat cannot reach its laptop (it says it in the person's
// language), or that it can again (kind "").
func trouble(t bridge.Trouble) {
	kinds := map[bridge.TroubleKind]string{bridge.NoTrouble: "", bridge.Refused: "refused", bridge.Moved: "moved",
		bridge.Closing: "closing", bridge.Full: "full", bridge.Unreachable: "unreachable", bridge.Unsupported: "unsupported"}
	if f := js.Global().Get("corruptionSeatTrouble"); f.Type() == js.TypeFunction {
		f.Invoke(kinds[t.Kind], t.Text)
	}
}

// setLaptop tells the loader which laptop the seat reached: its label and its fingerprint.
func setLaptop(label, fingerprint string) {
	if f := js.Global().Get("corruptionSeatLaptop"); f.Type() == js.TypeFunction {
		f.Invoke(label, fingerprint)
	}
}

// setConnected marks the page as connected to the laptop or not (the loader shows it).
func setConnected(up bool) {
	if f := js.Global().Get("corruptionSeatConnected"); f.Type() == js.TypeFunction {
		f.Invoke(up)
	}
}

// turn alerts the person that a decision of theirs is due, or no longer (the loader vibrates,
// beeps when the page is hidden, and marks the tab's title). The page's next state is not held
// back by the pace (register.go): a decision due is drawn at once, and so is the answer a person
// just tapped (without it, the tapped decision stayed on the page until the pause after the last
// state ended: up to three seconds on a slow phone, and it could be tapped again). A seat that
// plays by itself keeps the pace after its answers: nobody waits for them on the page, and
// drawing each one made the table a third slower (docs/PERFORMANCE.md, "The browser seat").
// person says that a person plays the seat (not &bot=1).
func turn(due, person bool) {
	if due || person {
		select {
		case dueNow <- struct{}{}:
		default:
		}
	}
	if f := js.Global().Get("corruptionSeatTurn"); f.Type() == js.TypeFunction {
		f.Invoke(due)
	}
}
