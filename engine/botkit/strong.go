package botkit

import (
	"math/rand/v2"
	"time"

	"corruption/engine/search"
)

// TimeCap bounds a strong bot's decision at a table (Player): a slow or busy machine plays
// fewer playouts rather than keep the table waiting. Simulations have no cap, so that their
// results depend on the seed and the budget alone.
const TimeCap = 5 * time.Second

// Searcher is what every game's strong bot keeps besides its game's own helpers: its random
// source, its search's budget and knobs (package search), and what its last search did. A
// game's Strong embeds it and calls Search with its game's determinizations.
type Searcher struct {
	rng  *rand.Rand
	cfg  search.Config
	last search.Stats
}

// Strong is what every game's strong bot is made of: a Searcher, and the heuristic bots it
// draws at its making: Heuristic ranks the moves and decides what the search leaves to it (and
// what a sample that panics could not), Policy[seat] plays seat's moves in the playouts.
type Strong[H any] struct {
	Searcher
	Heuristic H
	Policy    []H
}

// NewStrong is a strong bot drawing from rng that thinks playouts playouts a decision, its
// heuristic bots made by mk (Helpers), one a seat of the largest table of players.
func NewStrong[H any](rng *rand.Rand, playouts, players int, mk func(*rand.Rand) H) Strong[H] {
	s := Strong[H]{Searcher: NewSearcher(rng, playouts), Policy: make([]H, players)}
	s.Heuristic = Helpers(rng, s.Policy, mk)
	return s
}

// NewSearcher is a searcher drawing from rng that plays playouts determinizations a decision,
// with search.Defaults' knobs.
func NewSearcher(rng *rand.Rand, playouts int) Searcher {
	cfg := search.Defaults
	cfg.Playouts = playouts
	return Searcher{rng: rng, cfg: cfg}
}

// Name is the strong bot's kind.
func (s *Searcher) Name() string { return "strong" }

// Last is what the last search did.
func (s *Searcher) Last() search.Stats { return s.last }

// Rand is the searcher's random source, for the game's own helpers drawn at its making.
func (s *Searcher) Rand() *rand.Rand { return s.rng }

// AtTable caps each search at TimeCap: the bot plays at a table, where a person waits.
func (s *Searcher) AtTable() { s.cfg.Deadline = TimeCap }

// Search runs one search for seat over the determinizations sample draws, seeded from the
// searcher's random source, and keeps its figures for Last.
func Search[M comparable](s *Searcher, seat int, sample func(r *rand.Rand) search.Game[M]) M {
	cfg := s.cfg
	cfg.Seed = s.rng.Uint64()
	m, st := search.Run(seat, sample, cfg)
	s.last = st
	return m
}

// OrElse, deferred by a strong bot's decision, recovers a panic of its search (a sample the
// rules refuse: a bug of a determinizer or of a playout) and sets *m to what fallback, the
// heuristic, decides instead, so that a person's table never stops on it.
func OrElse[M any](m *M, fallback func() M) {
	if r := recover(); r != nil {
		*m = fallback()
	}
}
