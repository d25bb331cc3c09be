package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	"corruption/ui"
)

// Private tables (protocol/private.go, protocol/join.go): --private creates one and prints its
// join code; --join CODE joins one. The creator announces the code's nameplate on the join
// channel and answers the exchange on the join protocol; a joiner waits for the announcement
// of its nameplate, runs the exchange with that node, and gets the table. The table's channel
// is named after its secret, and everything on it is sealed.
const (
	adEvery = time.Second // how often a creator announces its nameplate
)

// privateFlags are --private and --join, of bot and play.
func privateFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "private", Usage: "create a private table, not listed in the lobby: it prints a join code for the other players (no --table)"},
		&cli.StringFlag{Name: "join", Usage: "join the private table of join `CODE` (no --table, --players or settings: they come with the table); CODE@RELAY also gives the relay to meet at"},
	}
}

// privateWish is what --private or --join asks for.
type privateWish struct {
	create bool
	code   protocol.JoinCode
	relay  string         // an internet join code's relay (CODE@RELAY)
	hosted *hostedPrivate // the table created, for the page (hostPrivate)
}

// hostedPrivate is the private table this node created, as the page shows it: its codes, and
// a signal at every failed attempt to join it (the admission's notef).
type hostedPrivate struct {
	code     string
	internet string // CODE@RELAY, "" without a relay
	adm      *protocol.Admission
	heard    chan struct{} // capacity 1: something happened at the door (Failed may have changed)
}

// info is the table for the page now.
func (h *hostedPrivate) info() ui.Private {
	return ui.Private{Code: h.code, Internet: h.internet, Failed: h.adm.Failed()}
}

// relays adds an internet join code's relay to the session's.
func (w *privateWish) relays(cfg sessionConfig) sessionConfig {
	if w != nil && w.relay != "" {
		cfg.relays = append(cfg.relays, w.relay)
	}
	return cfg
}

// readPrivateFlags reads --private and --join: nil when neither is given.
func readPrivateFlags(c *cli.Context) (*privateWish, error) {
	create, join := c.Bool("private"), c.String("join")
	switch {
	case !create && join == "":
		return nil, nil
	case create && join != "":
		return nil, usageError("--private creates a table and --join joins one: give one of them")
	case c.IsSet("table"):
		return nil, usageError("--table: a private table is named after its secret; leave --table out with --private and --join")
	case join != "" && (c.IsSet("players") || c.IsSet("game")):
		return nil, usageError("--join: the game and the number of players come with the table; leave --game and --players out")
	}
	w := &privateWish{create: create}
	if join != "" {
		code, relay, _ := strings.Cut(join, "@")
		var err error
		if w.code, err = protocol.ParseJoinCode(code); err != nil {
			return nil, usageError("--join: %v", err)
		}
		if w.relay = relay; relay != "" && !strings.Contains(relay, "/p2p/") {
			return nil, usageError("--join: %q after the code is not a relay's address (what corruption relay prints)", relay)
		}
	}
	return w, nil
}

// readPrivateTable reads the flags of a private table to create: tableFlags but --table.
func readPrivateTable(c *cli.Context) (ui.TableChoice, *game, error) {
	g, rules, err := gameOf(c)
	if err != nil {
		return ui.TableChoice{}, nil, err
	}
	if err := requireFlags(c, "players"); err != nil {
		return ui.TableChoice{}, nil, err
	}
	choice := ui.TableChoice{Game: g.ID, Players: c.Int("players")}
	if choice.Config, err = readSettings(c, g, rules, choice.Players); err != nil {
		return choice, nil, err
	}
	return choice, g, nil
}

// openPrivate creates the private table of choice (its name, the table itself and the join
// code come out of it) or joins the one of w.code, within wait.
func (s *session) openPrivate(ctx context.Context, w *privateWish, choice ui.TableChoice, wait time.Duration) (ui.TableChoice, *protocol.PrivateTable, error) {
	// A node restarted with the same command line (and --data) resumes the private table it
	// created, or joined with this code, if that table's game is under way here.
	saveAs := ""
	if !w.create {
		saveAs = w.code.String()
	}
	pt, err := s.store.SavedPrivate(saveAs)
	if err != nil {
		return choice, nil, cli.Exit(err.Error(), 1)
	}
	switch {
	case pt != nil:
		s.notef("resuming private table %s, saved in the data directory", pt.Name())
	case w.create:
		pt, w.hosted, err = s.hostPrivate(ctx, choice)
	default:
		ctx, cancel := context.WithTimeout(ctx, wait)
		defer cancel()
		pt, err = s.joinPrivate(ctx, w.code)
	}
	if err != nil {
		return choice, nil, err
	}
	if err := s.store.SavePrivate(saveAs, pt); err != nil {
		return choice, nil, cli.Exit(fmt.Sprintf("cannot keep the private table in the data directory: %v", err), 1)
	}
	if _, ok := games[pt.Game]; !ok {
		return choice, nil, cli.Exit(fmt.Sprintf("the private table plays %q, which this build does not play", pt.Game), 1)
	}
	if _, err := engine.Lookup(pt.Game); err != nil {
		return choice, nil, cli.Exit(err.Error(), 1)
	}
	return ui.TableChoice{Table: pt.Name(), Game: pt.Game, Config: pt.Config, Players: pt.Players}, pt, nil
}

// hostPrivate creates a private table: it draws the table and its code, serves the join
// exchange, announces the nameplate until the table is full, and prints the code.
func (s *session) hostPrivate(ctx context.Context, choice ui.TableChoice) (*protocol.PrivateTable, *hostedPrivate, error) {
	pt, err := protocol.NewPrivateTable(nil, s.key.Public().(ed25519.PublicKey), choice.Game, choice.Config, choice.Players)
	if err != nil {
		return nil, nil, cli.Exit(err.Error(), 1)
	}
	code, err := protocol.NewJoinCode(nil)
	if err != nil {
		return nil, nil, cli.Exit(err.Error(), 1)
	}
	hosted := &hostedPrivate{code: code.String(), heard: make(chan struct{}, 1)}
	if len(s.cfg.relays) > 0 {
		hosted.internet = hosted.code + "@" + s.cfg.relays[0]
	}
	// The admission tells notef of every admission and failure, holding its lock: the signal
	// never blocks, and the page reads the count (Failed) after.
	adm := protocol.NewAdmission(code, pt, nil, nil, func(format string, args ...any) {
		s.notef(format, args...)
		select {
		case hosted.heard <- struct{}{}:
		default:
		}
	})
	hosted.adm = adm
	// The joiner states its key in its request (join version 2); the attempts are counted
	// against the connection it came on (a laptop relays its phones' exchanges).
	s.net.Handle(tablenet.JoinProto, adm.Serve)
	if err := s.net.Join(tablenet.JoinTopic, tablenet.CheckJoinAd); err != nil {
		return nil, nil, cli.Exit(err.Error(), 1)
	}
	ctx, stop := context.WithCancel(ctx)
	s.cleanup = append(s.cleanup, stop)
	go func() {
		t := time.NewTicker(adEvery)
		defer t.Stop()
		for !adm.Full() {
			if err := s.net.Publish(ctx, tablenet.JoinTopic, protocol.JoinAd(code, pt.Creator)); err != nil && ctx.Err() == nil {
				s.logf("announcing the private table: %v", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
		s.logf("the private table is full: no more announcements")
	}()
	if w := s.cfg.errw; w != nil {
		fmt.Fprintf(w, "join code: %s\n", code)
		if len(s.cfg.relays) > 0 {
			// An internet join code: the code and where to meet, one string to paste.
			fmt.Fprintf(w, "internet join code: %s@%s\n", code, s.cfg.relays[0])
		}
		fmt.Fprintf(w, "corruption: a private table of %d: the other players join with --join %s\n", choice.Players, code)
	}
	return pt, hosted, nil
}

// joinPrivate waits for a creator that announces the code's nameplate and runs the exchange
// with it, until it is admitted, refused, or ctx ends (--join: the errors in words for the
// command line).
func (s *session) joinPrivate(ctx context.Context, code protocol.JoinCode) (*protocol.PrivateTable, error) {
	pt, err := s.findPrivate(ctx, code, nil)
	var wait *protocol.JoinWaitError
	switch {
	case err == nil:
		return pt, nil
	case errors.Is(err, protocol.ErrWrongCode):
		return nil, cli.Exit(fmt.Sprintf("--join: %v (the table's creator counted a failed attempt)", err), 1)
	case errors.Is(err, protocol.ErrTableFull), errors.Is(err, protocol.ErrOldCreator):
		return nil, cli.Exit(fmt.Sprintf("--join: %v", err), 1)
	case errors.Is(err, ui.ErrNoCreator), errors.As(err, &wait):
		return nil, cli.Exit(fmt.Sprintf("--join: no private table of nameplate %q answered in time (is its creator's node reachable? --peer ADDR)", code.Nameplate), 1)
	}
	return nil, cli.Exit(err.Error(), 1)
}

// findPrivate is joinPrivate's search: it returns protocol.ErrWrongCode or ErrTableFull when
// a creator refuses, and when ctx ends ui.ErrNoCreator, or the last *protocol.JoinWaitError
// when a creator was limiting attempts (the page says each in its words). It calls heard (when
// not nil) at each announcement of the code's nameplate it hears.
func (s *session) findPrivate(ctx context.Context, code protocol.JoinCode, heard func()) (*protocol.PrivateTable, error) {
	if err := s.net.Join(tablenet.JoinTopic, tablenet.CheckJoinAd); err != nil {
		return nil, err
	}
	defer s.net.Leave(tablenet.JoinTopic)
	self := s.key.Public().(ed25519.PublicKey)
	notBefore := map[string]time.Time{} // creators that asked us to wait, or that failed
	var lastWait *protocol.JoinWaitError
	var old error // a creator of an older release announced the nameplate
	s.notef("looking for the private table of nameplate %q", code.Nameplate)
	for {
		from, data, err := s.net.Next(ctx, tablenet.JoinTopic)
		if err != nil {
			if ctx.Err() != nil {
				switch {
				case lastWait != nil:
					return nil, lastWait
				case old != nil:
					return nil, old
				}
				return nil, ui.ErrNoCreator
			}
			return nil, err
		}
		// The creator's key comes with its announcement (its author may be a laptop that
		// relays a phone's); the exchange checks it.
		np, creator, adErr := protocol.ParseJoinAd(data)
		if np == code.Nameplate && heard != nil {
			heard()
		}
		if np != code.Nameplate || time.Now().Before(notBefore[from]) {
			continue
		}
		if adErr != nil {
			old = adErr
			continue
		}
		pt, err := protocol.Join(ctx, nil, code, self, creator, func(ctx context.Context, req []byte) ([]byte, error) {
			return s.net.Request(ctx, from, tablenet.JoinProto, req)
		})
		var wait *protocol.JoinWaitError
		switch {
		case err == nil:
			s.notef("admitted to the private table by %s", from)
			return pt, nil
		case errors.Is(err, protocol.ErrWrongCode), errors.Is(err, protocol.ErrTableFull), errors.Is(err, protocol.ErrOldCreator):
			return nil, err
		case errors.As(err, &wait):
			s.notef("%v", err)
			lastWait = wait
			notBefore[from] = time.Now().Add(wait.Wait)
		case errors.Is(err, protocol.ErrNoNameplate):
			notBefore[from] = time.Now().Add(time.Hour)
		default:
			s.logf("joining through %s: %v", from, err)
			notBefore[from] = time.Now().Add(adEvery)
		}
	}
}

// pageJoin is the page's join by code (ui.Config.JoinPrivate): the same search as --join,
// until the page gives up (ui.Config.JoinLimit, at most wait) or the person cancels. An
// internet join code's relay is dialed first (the surest way through a relay is still to
// start play with --relay). The table joined is kept for the command (take).
type pageJoin struct {
	s    *session
	wait time.Duration
	mu   sync.Mutex
	pt   *protocol.PrivateTable
}

func (j *pageJoin) join(ctx context.Context, text string, heard func()) (ui.TableChoice, error) {
	bare, relay, _ := strings.Cut(strings.TrimSpace(text), "@")
	code, err := protocol.ParseJoinCode(bare)
	if err != nil {
		return ui.TableChoice{}, err
	}
	if relay != "" {
		if err := j.s.host.Dial(relay); err != nil {
			j.s.logf("dialing the relay of the join code: %v", err)
		}
	}
	pt, err := j.s.findPrivate(ctx, code, heard)
	if err != nil {
		return ui.TableChoice{}, err
	}
	if _, ok := games[pt.Game]; !ok {
		return ui.TableChoice{}, fmt.Errorf("the private table plays %q, which this build does not play", pt.Game)
	}
	j.mu.Lock()
	j.pt = pt
	j.mu.Unlock()
	return ui.TableChoice{Table: pt.Name(), Game: pt.Game, Config: pt.Config, Players: pt.Players}, nil
}

// take is the private table joined from the page, if the person sits at it (choice).
func (j *pageJoin) take(choice ui.TableChoice) *protocol.PrivateTable {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.pt != nil && j.pt.Name() == choice.Table {
		return j.pt
	}
	return nil
}
