package seat

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	"corruption/ui"
)

// table is what one table of the loop needs beyond the loop's configuration.
type table struct {
	choice ui.TableChoice
	clock  Clock
	sit    Sitting
	player engine.Player
	show   shows
	slot   *ui.NodeSlot
	lobby  *tablenet.Net
	key    ed25519.PrivateKey
	// forget, if set, forgets the table noted for a reload: called before the page shows the
	// end of a table that is over or could not start, so that a reload once the results are
	// in sight never goes back to it.
	forget func()
}

// playOne plays one table to its end (or until ctx ends) and shows the person how it went: a
// table that cannot start ends on its results too, with the reason in words, or (with
// Config.Fatal) ends Run with it. node is nil when the table could not start.
func playOne(ctx context.Context, cfg Config, t table) (res ui.Result, node *protocol.Node, fatal error) {
	show := func(res ui.Result) {
		t.show.Finish(res)
		if cfg.OnFinish != nil {
			cfg.OnFinish(res)
		}
	}
	fail := func(err, words error) (ui.Result, *protocol.Node, error) {
		if cfg.Fatal {
			return ui.Result{Err: err}, nil, err
		}
		res := ui.Result{Err: words}
		if t.forget != nil {
			t.forget()
		}
		show(res)
		return res, nil, nil
	}
	choice := t.choice
	var tn protocol.Network
	var leave func() error
	var err error
	var lobby protocol.Network // a private table is not announced
	if t.sit.Private != nil {
		tn, leave, err = tablenet.JoinPrivate(cfg.Net, t.sit.Private)
	} else {
		lobby = t.lobby
		var n *tablenet.Net
		if n, err = tablenet.JoinTable(cfg.Net, choice.Table); err == nil {
			tn, leave = n, n.Leave
		}
	}
	if err != nil {
		return fail(err, fmt.Errorf("the laptop cannot carry table %q: %w", choice.Table, err))
	}
	defer leave() // the table's topic, once its node is done (the next table may bear its name)
	k := t.clock
	node, err = protocol.NewNode(protocol.NodeConfig{Table: choice.Table, Game: choice.Game, Config: choice.Config,
		Players: choice.Players, Name: cfg.Name, Timeout: k.Timeout, Allowance: k.Allowance, Bank: k.Bank,
		FormTimeout: k.Wait, Escrow: k.Escrow, Exclude: choice.Exclude, Identity: t.key, Store: cfg.Store, Player: t.player, Net: tn, Lobby: lobby,
		Private: t.sit.Private, Logf: cfg.Logf, Notef: cfg.Notef, OnEvent: t.show.Event, OnChange: t.show.Update, OnChat: t.show.Chat})
	if err != nil {
		return fail(err, fmt.Errorf("cannot sit at table %q: %w", choice.Table, err))
	}
	t.slot.Attach(node)
	defer t.slot.Attach(nil)
	out, runErr := node.Run(ctx)
	res = ui.Result{Outcome: out, Err: runErr}
	if node.Table() != nil {
		b, err := cfg.Store.ReadTableFile(choice.Table, "log")
		if err == nil {
			// The log as saved, read back; against the table that checked every entry as it
			// came, a log that holds exactly its entries needs no second check of every proof.
			res.Audit, err = protocol.AuditChecked(b, node.Table(), engine.Options{})
		}
		if err != nil {
			cfg.Notef("cannot audit the log: %v", err)
		}
	}
	if t.sit.Resume != nil {
		res.Resume = t.sit.Resume(out)
	}
	if runErr == nil && out != nil && !out.Paused && !cfg.KeepData {
		// Over: what the log cannot be read without goes (the log stays), before the page
		// shows the end.
		if err := cfg.Store.WipeSecrets(choice.Table); err != nil {
			cfg.Notef("cannot wipe the table's secrets: %v", err)
		}
	}
	if ctx.Err() == nil && (out == nil || !out.Paused) && t.forget != nil {
		t.forget() // over, or never played (a table stopped, the page closing, stays noted)
	}
	if ctx.Err() == nil || runErr == nil || cfg.ShowStopped {
		show(res)
	}
	return res, node, nil
}

// standIn decides with a game's stand-in bot (Autoplay).
type standIn struct {
	f engine.StandIn
	n uint64
}

func (p *standIn) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if p.f == nil {
		return engine.Action{}, errors.New("seat: this game has no stand-in bot to play by itself")
	}
	p.n++
	return p.f(g, seat, p.n)
}

// alerting tells OnTurn before each decision of the person's.
type alerting struct {
	engine.Player
	onTurn func(due bool)
}

func (a alerting) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	a.onTurn(true)
	defer a.onTurn(false)
	return a.Player.Decide(ctx, g, seat)
}
