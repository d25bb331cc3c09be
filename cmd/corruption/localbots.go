package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"corruption/p2p"
	"corruption/ui"
)

// localBots are the bots of this machine at the person's table (play and demo --bots): each
// a session of its own, with its data directory beside the person's (temporary when the
// person's is; botData) and a p2p host on 127.0.0.1 (no mDNS) that dials the person's.
type localBots struct {
	clock    tableClock // the clock and escrow they sit with
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	sessions []*session
	once     sync.Once
	over     chan struct{} // closed when every bot's run returned
	mu       sync.Mutex
	played   map[int]*played // how each bot played (by its number, from 1), as they end
}

// startLocalBots seats c.Bots bots of c's game at the table c, dialing the person's session on
// loopback. Their data directories are DATA/bots/i beside the person's, or, when dir is not
// "", DATA/bots/dir/i (the bots of a phone's table: phoneseats.go).
func startLocalBots(ctx context.Context, person *session, pc playConfig, c ui.TableChoice, dir string) (*localBots, error) {
	b := &localBots{clock: pc.clock, cancel: func() {}, over: make(chan struct{})}
	if c.Bots == 0 {
		close(b.over)
		return b, nil
	}
	g := games[c.Game]
	if g == nil {
		return nil, fmt.Errorf("this build has no bots of %q", c.Game)
	}
	peer, err := loopbackAddr(person.host)
	if err != nil {
		return nil, err
	}
	ctx, b.cancel = context.WithCancel(ctx)
	for i := 1; i <= c.Bots; i++ {
		level := pc.level
		if c.Level != "" { // the lobby's choice
			level.level = c.Level
		}
		data := botData(person, i)
		if data != "" && dir != "" {
			data = filepath.Join(person.cfg.data, "bots", dir, fmt.Sprint(i))
		}
		if err := b.start(ctx, i, peer, data, person.logf, g, level, pc.clock, c); err != nil {
			go func() { b.wg.Wait(); close(b.over) }()
			b.stop()
			return nil, fmt.Errorf("bot %d: %w", i, err)
		}
	}
	go func() {
		b.wg.Wait()
		close(b.over)
	}()
	return b, nil
}

// finished says whether every bot's run returned.
func (b *localBots) finished() bool {
	select {
	case <-b.over:
		return true
	default:
		return false
	}
}

// result is how bot i (from 0, in the order of sessions) played, once its run returned.
func (b *localBots) result(i int) *played {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.played[i+1]
}

func (b *localBots) start(ctx context.Context, i int, peer, data string, logf func(string, ...any), g *game, level botChoice, clock tableClock, c ui.TableChoice) error {
	name := fmt.Sprintf("bot %d", i)
	s, err := openSession(ctx, sessionConfig{listen: []string{p2p.DefaultListen}, peers: []string{peer},
		data: data, logf: func(f string, a ...any) { logf(name+": "+f, a...) }})
	if err != nil {
		return err
	}
	b.sessions = append(b.sessions, s)
	var seed [8]byte
	rand.Read(seed[:])
	player, err := levelPlayer(g, level, binary.LittleEndian.Uint64(seed[:]))
	if err != nil {
		return err
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		// A bot announces its table in the lobby as the person does: every lobby on the LAN (a
		// phone's among them) counts it among the players seated.
		r, err := s.play(ctx, seat{choice: c, name: name, clock: clock, player: player, agreePause: true, lobby: true})
		if err == nil {
			b.mu.Lock()
			if b.played == nil {
				b.played = map[int]*played{}
			}
			b.played[i] = r
			b.mu.Unlock()
			err = r.err
		}
		if err != nil && ctx.Err() == nil {
			logf("%s: %v", name, err)
		}
	}()
	return nil
}

// botData is the data directory of local bot i: beside the person's (DATA/bots/i), so that a
// paused table resumes with the same bots; temporary when the person's is.
func botData(person *session, i int) string {
	if person.cfg.data == "" {
		return ""
	}
	return filepath.Join(person.cfg.data, "bots", fmt.Sprint(i))
}

// wait gives the bots up to d (or until ctx ends) to finish their table.
func (b *localBots) wait(ctx context.Context, d time.Duration) {
	done := make(chan struct{})
	go func() {
		b.wg.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	case <-ctx.Done():
	}
}

// stop ends the bots and removes what they made in temporary directories.
func (b *localBots) stop() {
	b.once.Do(func() {
		b.cancel()
		b.wg.Wait()
		for _, s := range b.sessions {
			s.close()
		}
	})
}
