package corruption_test

// Rule tests for phase III (RULES.md, "Round structure" 3): the five awarding steps in global
// play order. Same conventions as rules_test.go: 3 players, seat 0 first, standard, round 1
// deals school, monument (City Hall), library, firehouse (County Seat), police, postoffice
// (Capitol). Cards are numbered by their place in the round's global play order (#1 is the
// first card placed): with seat 0 first, seat s's k-th card is #(3(k-1)+s+1).

import (
	"reflect"
	"sort"
	"testing"

	"corruption/engine/corruption"
)

// wantEvents checks the events of the given kinds, in order.
func wantEvents(want []string, kinds ...corruption.EventKind) func(*testing.T, *corruption.State, []corruption.Event) {
	return func(t *testing.T, _ *corruption.State, evs []corruption.Event) {
		t.Helper()
		got := eventsOf(evs, kinds...)
		if len(got) == 0 && len(want) == 0 {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("events %q, want %q", got, want)
		}
	}
}

// steps are the events of awarding steps 1, 2, 3 and 4, in the order they happen.
var steps = []corruption.EventKind{corruption.EventAssigned, corruption.EventKilled, corruption.EventCancelled, corruption.EventRemoved, corruption.EventPassed}

func wantOptions(kill, remove []int, assign string) func(*testing.T, *corruption.State, []corruption.Event) {
	return func(t *testing.T, s *corruption.State, _ []corruption.Event) {
		t.Helper()
		if got := s.KillTargets(); !reflect.DeepEqual(got, kill) {
			t.Errorf("kill targets %v, want %v", got, kill)
		}
		if got := s.RemoveOptions(); !reflect.DeepEqual(got, remove) {
			t.Errorf("remove options %v, want %v", got, remove)
		}
		if got := ids(s.AssignOptions()); got != assign {
			t.Errorf("assign options [%s], want [%s]", got, assign)
		}
	}
}

func TestAward(t *testing.T) {
	runCases(t, []ruleCase{{
		// school: 10,000 (seat 0) against 8,000: seat 0. monument: 1,000 each: a tie, deferred.
		// library: 10,000 for seats 1 and 2 (6,000+4,000), 2,000 for seat 0: a tie for the
		// highest, deferred. firehouse: no bribe, deferred. police: 4,000+6,000 (seat 0) against
		// 2,000+4,000 and 8,000: seat 0. postoffice: 1,000+2,000+10,000 (seat 2) against 8,000
		// and 6,000: seat 2.
		name: "the highest sum wins; a tie for the highest or no bribe defers",
		g:    game{moves: scenarioA()},
		want: outcome{round: 2, first: intp(0), next: "place 0", scores: []int{300000, 0, 200000},
			won: []string{"school police", "", "postoffice"}, deferred: strp("monument library firehouse")},
		extra: func(t *testing.T, _ *corruption.State, evs []corruption.Event) {
			got := eventsOf(evs, corruption.EventAwarded, corruption.EventDeferred)
			sort.Strings(got)
			want := []string{"awarded police 0", "awarded postoffice 2", "awarded school 0",
				"deferred firehouse", "deferred library", "deferred monument"}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("events %q, want %q", got, want)
			}
		},
	}, {
		name: "a deferred contract can be won in a later round",
		g: game{moves: moves(scenarioA(), turns(0,
			"1000:monument 2000:firehouse 4000:hospital 6000:hospital 8000:hospital 10000:hospital",
			"1000:library 2000:courthouse 4000:courthouse 6000:courthouse 8000:courthouse 10000:courthouse",
			"1000:housing 2000:housing 4000:housing 6000:housing 8000:housing 10000:housing"))},
		want: outcome{round: 3, first: intp(0), scores: []int{300000 + 100000 + 150000 + 300000, 150000 + 250000, 200000 + 300000},
			won:      []string{"school police monument hospital firehouse", "courthouse library", "postoffice housing"},
			deferred: strp("opera museum sewer")},
	}})
}

func TestSwissAccounts(t *testing.T) {
	// Seat 0 puts a bribe on City Hall's Swiss account (#1) and assigns it to school, where
	// seat 1 has a $4,000 bribe (#2). Postoffice goes to seat 1 (27,000 against seat 0's rest),
	// police to seat 2.
	swiss := func(card, rest string) []string {
		return turns(0, card+":swiss:city "+rest,
			"4000:school 1000:postoffice 2000:postoffice 6000:postoffice 8000:postoffice 10000:postoffice",
			"1000:police 2000:police 4000:police 6000:police 8000:police 10000:police")
	}
	assign := func(seat int, c string) string {
		return `{"seat": ` + string(rune('0'+seat)) + `, "assign": "` + c + `"}`
	}
	half8000 := swiss("8000", "1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 10000:postoffice")
	runCases(t, []ruleCase{{
		name:  "a Swiss bribe is assigned by its owner, in play order, once all cards are placed",
		g:     game{moves: half8000},
		want:  outcome{round: 1, next: "assign 0 #1"},
		extra: wantOptions(nil, nil, "school monument"),
	}, {
		name: "a Swiss bribe is face down, even as a player's first card in round 1",
		g:    game{moves: half8000[:2]},
		want: outcome{round: 1, next: "place 2"},
		extra: func(t *testing.T, s *corruption.State, evs []corruption.Event) {
			if p, _ := s.PlayAt(1); p.FaceUp || p.Revealed || p.Pos != 1 || p.Spot != spot(t, "swiss:city") {
				t.Errorf("card 1 is %+v, want face down on swiss:city at position 1", p)
			}
			if p, _ := s.PlayAt(2); !p.FaceUp || p.Pos != 1 {
				t.Errorf("card 2 is %+v, want face up at position 1", p)
			}
			if p, _ := s.View(1).Play(1); p.Card != corruption.CardUnknown {
				t.Errorf("seat 1 sees the Swiss bribe before the reveal")
			}
		},
	}, {
		name: "an $8,000 Swiss bribe counts $4,000: a tie with a $4,000 bribe",
		g:    game{moves: moves(half8000, assign(0, "school"))},
		want: outcome{round: 2, first: intp(1), scores: []int{0, 200000, 200000}, won: []string{"", "postoffice", "police"},
			deferred: strp("school monument library firehouse")},
		extra: wantEvents([]string{"assigned 0 #1 school"}, steps...),
	}, {
		name: "a $10,000 Swiss bribe counts $5,000: it beats a $4,000 bribe",
		g:    game{moves: moves(swiss("10000", "1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice"), assign(0, "school"))},
		want: outcome{round: 2, first: intp(1), scores: []int{100000, 200000, 200000}, won: []string{"school", "postoffice", "police"}},
	}, {
		name: "a Swiss bribe adds half its value to direct bribes",
		g:    game{moves: moves(swiss("6000", "2000:school 1000:postoffice 4000:postoffice 8000:postoffice 10000:postoffice"), assign(0, "school"))},
		want: outcome{round: 2, scores: []int{100000, 200000, 200000}, won: []string{"school", "postoffice", "police"}},
	}, {
		name: "a Swiss bribe assigned elsewhere under its body does not count on school",
		g:    game{moves: moves(swiss("10000", "1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice"), assign(0, "monument"))},
		want: outcome{round: 2, scores: []int{100000, 300000, 200000}, won: []string{"monument", "school postoffice", "police"}},
	}, {
		name: "not to a contract under another body",
		g:    game{moves: moves(half8000, assign(0, "library"))},
		want: outcome{err: "move 19: seat 0 cannot assign", next: "assign 0 #1"},
	}, {
		name: "not to a contract off the table",
		g:    game{moves: moves(half8000, assign(0, "dam"))},
		want: outcome{err: "move 19: seat 0 cannot assign", next: "assign 0 #1"},
	}, {
		name: "only by its owner",
		g:    game{moves: moves(half8000, assign(1, "school"))},
		want: outcome{err: "move 19: seat 1 cannot assign", next: "assign 0 #1"},
	}, {
		name: "to a deferred contract under its body",
		g: game{moves: moves(scenarioA(), turns(0,
			"10000:swiss:city 1000:hospital 2000:hospital 4000:hospital 6000:hospital 8000:hospital",
			"1000:courthouse 2000:courthouse 4000:courthouse 6000:courthouse 8000:courthouse 10000:courthouse",
			"1000:housing 2000:housing 4000:housing 6000:housing 8000:housing 10000:housing"), assign(0, "monument"))},
		want: outcome{round: 3, won: []string{"school police monument hospital", "courthouse", "postoffice housing"}},
	}, {
		name: "assignment options are every contract under the body, deferred ones included",
		g: game{moves: moves(scenarioA(), turns(0,
			"10000:swiss:city 1000:hospital 2000:hospital 4000:hospital 6000:hospital 8000:hospital",
			"1000:courthouse 2000:courthouse 4000:courthouse 6000:courthouse 8000:courthouse 10000:courthouse",
			"1000:housing 2000:housing 4000:housing 6000:housing 8000:housing 10000:housing"))},
		want:  outcome{round: 2, next: "assign 0 #1"},
		extra: wantOptions(nil, nil, "monument courthouse hospital"),
	}})

	// Two Swiss bribes: seat 1's on the County Seat's account (#2) is assigned before seat 0's
	// on City Hall's (#4), though City Hall is further left: global play order.
	order := turns(0,
		"1000:school 2000:swiss:city 4000:police 6000:police 8000:police 10000:police",
		"4000:swiss:county 1000:postoffice 2000:postoffice 6000:postoffice 8000:postoffice 10000:postoffice",
		"1000:library 2000:monument 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse")
	runCases(t, []ruleCase{{
		name:  "Swiss bribes in global play order: first #2",
		g:     game{moves: order},
		want:  outcome{next: "assign 1 #2"},
		extra: wantOptions(nil, nil, "library firehouse"),
	}, {
		name:  "Swiss bribes in global play order: then #4",
		g:     game{moves: moves(order, assign(1, "library"))},
		want:  outcome{next: "assign 0 #4"},
		extra: wantOptions(nil, nil, "school monument"),
	}, {
		// library: seat 1's 2,000 (half of 4,000) beats seat 2's 1,000. monument: seat 0's 1,000
		// (half of 2,000) loses to seat 2's 2,000.
		name: "Swiss bribes in global play order: the round ends",
		g:    game{moves: moves(order, assign(1, "library"), assign(0, "monument"))},
		want: outcome{round: 2, first: intp(1), scores: []int{300000, 350000, 250000},
			won: []string{"school police", "library postoffice", "monument firehouse"}},
		extra: wantEvents([]string{"assigned 1 #2 library", "assigned 0 #4 monument"}, steps...),
	}})

	// A reporter cannot remove a Swiss bribe (seat 0's #1, assigned to school).
	reporter := func(seat2 string) []string {
		return moves(turns(0,
			"10000:swiss:city 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice",
			"reporter:school 1000:police 2000:police 4000:police 6000:police 8000:police",
			seat2), assign(0, "school"))
	}
	runCases(t, []ruleCase{{
		name:  "a reporter is not asked when the only bribe is a Swiss one",
		g:     game{moves: reporter("1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse")},
		want:  outcome{round: 2, first: intp(0), scores: []int{300000, 200000, 150000}, won: []string{"school postoffice", "police", "firehouse"}},
		extra: wantEvents([]string{"assigned 0 #1 school"}, steps...),
	}, {
		name:  "a reporter may remove only the direct bribe",
		g:     game{moves: reporter("1000:school 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse")},
		want:  outcome{next: "remove 1 #2"},
		extra: wantOptions(nil, []int{3}, ""),
	}, {
		name: "a reporter cannot remove a Swiss bribe",
		g: game{moves: moves(reporter("1000:school 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse"),
			`{"seat": 1, "remove": 1}`)},
		want: outcome{err: "move 20: seat 1", next: "remove 1 #2"},
	}, {
		name: "the Swiss bribe stands after the reporter removes the direct one",
		g: game{moves: moves(reporter("1000:school 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse"),
			`{"seat": 1, "remove": 3}`)},
		want:  outcome{round: 2, won: []string{"school postoffice", "police", "firehouse"}},
		extra: wantEvents([]string{"assigned 0 #1 school", "removed 1 #2 #3"}, steps...),
	}})
}

func TestHitMen(t *testing.T) {
	runCases(t, []ruleCase{{
		// #1 seat 0's hit man, #2 seat 1's DA, #3 seat 2's $1,000, all under school.
		name: "a hit man with one target kills it without asking",
		g: game{moves: turns(0,
			"hitman:school 1000:police 2000:police 4000:police 6000:police 8000:police",
			"da:school 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice",
			"1000:school 2000:library 4000:library 6000:library 8000:library 10000:library")},
		want: outcome{round: 2, first: intp(2), scores: []int{200000, 200000, 250000},
			won: []string{"police", "postoffice", "school library"}},
		extra: wantEvents([]string{"killed 0 #1 #2"}, steps...),
	}, {
		name: "a hit man with no target does nothing",
		g: game{moves: turns(0,
			"hitman:school 1000:police 2000:police 4000:police 6000:police 8000:police",
			"reporter:monument 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice",
			"1000:school 2000:library 4000:library 6000:library 8000:library 10000:library")},
		want:  outcome{round: 2, won: []string{"police", "postoffice", "school library"}},
		extra: wantEvents(nil, steps...),
	}})

	// #1 seat 0's hit man, #2 seat 1's DA, #3 seat 2's reporter, #4 seat 0's reporter, all under
	// school, where there is no bribe.
	several := turns(0,
		"hitman:school reporter:school 1000:police 2000:police 4000:police 6000:police",
		"da:school 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice",
		"reporter:school 1000:library 2000:library 4000:library 6000:library 8000:library")
	kill := func(seat, i int) string {
		return `{"seat": ` + string(rune('0'+seat)) + `, "kill": ` + itoa(i) + `}`
	}
	runCases(t, []ruleCase{{
		name:  "with several targets the owner chooses, its own cards included",
		g:     game{moves: several},
		want:  outcome{next: "kill 0 #1"},
		extra: wantOptions([]int{2, 3, 4}, nil, ""),
	}, {
		name:  "killing the district attorney saves the contract",
		g:     game{moves: moves(several, kill(0, 2))},
		want:  outcome{round: 2, deferred: strp("school monument firehouse")},
		extra: wantEvents([]string{"killed 0 #1 #2"}, steps...),
	}, {
		name:  "killing its own reporter",
		g:     game{moves: moves(several, kill(0, 4))},
		want:  outcome{round: 2},
		extra: wantEvents([]string{"killed 0 #1 #4", "cancelled school"}, steps...),
	}, {
		name: "not itself",
		g:    game{moves: moves(several, kill(0, 1))},
		want: outcome{err: "move 19: seat 0", next: "kill 0 #1"},
	}, {
		name: "not a bribe",
		g:    game{moves: moves(several, kill(0, 5))},
		want: outcome{err: "move 19: seat 0", next: "kill 0 #1"},
	}, {
		name: "not a card that does not exist",
		g:    game{moves: moves(several, kill(0, 19))},
		want: outcome{err: "move 19: seat 0", next: "kill 0 #1"},
	}, {
		name: "only by its owner",
		g:    game{moves: moves(several, kill(1, 2))},
		want: outcome{err: "move 19: seat 1 cannot", next: "kill 0 #1"},
	}})

	// #1 seat 0's hit man, #2 seat 1's hit man, #3 seat 2's DA, all under school.
	duel := turns(0,
		"hitman:school 1000:police 2000:police 4000:police 6000:police 8000:police",
		"hitman:school 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice",
		"da:school 1000:library 2000:library 4000:library 6000:library 8000:library")
	runCases(t, []ruleCase{{
		name:  "a hit man killed before its turn does not act",
		g:     game{moves: moves(duel, kill(0, 2))},
		want:  outcome{round: 2},
		extra: wantEvents([]string{"killed 0 #1 #2", "cancelled school"}, steps...),
	}, {
		name:  "a living hit man acts on its turn: its one target is the other hit man",
		g:     game{moves: moves(duel, kill(0, 3))},
		want:  outcome{round: 2},
		extra: wantEvents([]string{"killed 0 #1 #3", "killed 1 #2 #1"}, steps...),
	}})

	// #1 seat 0's DA on school, #2 seat 1's hit man on postoffice, #3 seat 2's DA on postoffice,
	// #4 seat 0's hit man on school, #5 seat 1's DA on school, #6 seat 2's reporter on postoffice.
	// The hit man on postoffice (right of school) acts first: it was placed first.
	order := turns(0,
		"da:school hitman:school 1000:police 2000:police 4000:police 6000:police",
		"hitman:postoffice da:school 1000:library 2000:library 4000:library 6000:library",
		"da:postoffice reporter:postoffice 1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse")
	runCases(t, []ruleCase{{
		name:  "hit men act in global play order, not table order",
		g:     game{moves: order},
		want:  outcome{next: "kill 1 #2"},
		extra: wantOptions([]int{3, 6}, nil, ""),
	}, {
		name:  "then the second hit man",
		g:     game{moves: moves(order, kill(1, 3))},
		want:  outcome{next: "kill 0 #4"},
		extra: wantOptions([]int{1, 5}, nil, ""),
	}, {
		name:  "school keeps a living district attorney; postoffice does not",
		g:     game{moves: moves(order, kill(1, 3), kill(0, 1))},
		want:  outcome{round: 2},
		extra: wantEvents([]string{"killed 1 #2 #3", "killed 0 #4 #1", "cancelled school"}, steps...),
	}})
}

func TestDistrictAttorneys(t *testing.T) {
	// Seat 0 bids 10,000 on school (#1), seat 1 puts its DA there (#2).
	r1 := turns(0,
		"10000:school 1000:police 2000:police 4000:police 6000:police 8000:police",
		"da:school 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice",
		"1000:library 2000:library 4000:library 6000:library 8000:library 10000:library")
	runCases(t, []ruleCase{{
		name: "a district attorney cancels the contract: it stays on the table, deferred",
		g:    game{moves: r1},
		want: outcome{round: 2, first: intp(0), scores: []int{200000, 200000, 150000},
			won: []string{"police", "postoffice", "library"}, deferred: strp("school monument firehouse"),
			table: strp("school monument courthouse hospital firehouse housing opera museum sewer")},
		extra: wantEvents([]string{"cancelled school"}, steps...),
	}, {
		name: "the cancelled contract is open again next round, and the bribes came back",
		g: game{moves: moves(r1, turns(0,
			"10000:school 1000:courthouse 2000:courthouse 4000:courthouse 6000:courthouse 8000:courthouse",
			"1000:hospital 2000:hospital 4000:hospital 6000:hospital 8000:hospital 10000:hospital",
			"1000:housing 2000:housing 4000:housing 6000:housing 8000:housing 10000:housing"))},
		want: outcome{round: 3, first: intp(0), scores: []int{200000 + 100000 + 250000, 200000 + 300000, 150000 + 300000},
			won:      []string{"police school courthouse", "postoffice hospital", "library housing"},
			deferred: strp("monument firehouse opera museum sewer")},
	}, {
		name: "a Swiss bribe assigned to a cancelled contract counts nowhere",
		g: game{moves: moves(turns(0,
			"10000:swiss:city 1000:police 2000:police 4000:police 6000:police 8000:police",
			"da:school 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice",
			"1000:monument 2000:library 4000:library 6000:library 8000:library 10000:library"),
			`{"seat": 0, "assign": "school"}`)},
		want:  outcome{round: 2, won: []string{"police", "postoffice", "monument library"}, deferred: strp("school firehouse")},
		extra: wantEvents([]string{"assigned 0 #1 school", "cancelled school"}, steps...),
	}, {
		name: "two district attorneys, one killed: still cancelled",
		g: game{moves: moves(turns(0,
			"hitman:school 1000:police 2000:police 4000:police 6000:police 8000:police",
			"da:school 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice",
			"da:school 10000:school 2000:library 4000:library 6000:library 8000:library"),
			`{"seat": 0, "kill": 2}`)},
		want:  outcome{round: 2, won: []string{"police", "postoffice", "library"}},
		extra: wantEvents([]string{"killed 0 #1 #2", "cancelled school"}, steps...),
	}})
}

func TestReporters(t *testing.T) {
	// #1 seat 0's $10,000 and #2 seat 1's $8,000 under school; #3 seat 2's reporter there.
	base := func(s0, s1, s2 string) []string {
		if s0 == "" {
			s0 = "10000:school 1000:police 2000:police 4000:police 6000:police 8000:police"
		}
		if s1 == "" {
			s1 = "8000:school 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 10000:postoffice"
		}
		if s2 == "" {
			s2 = "reporter:school 1000:library 2000:library 4000:library 6000:library 8000:library"
		}
		return turns(0, s0, s1, s2)
	}
	plain := base("", "", "")
	runCases(t, []ruleCase{{
		name:  "a reporter's owner chooses among the bribes under its contract",
		g:     game{moves: plain},
		want:  outcome{next: "remove 2 #3"},
		extra: wantOptions(nil, []int{1, 2}, ""),
	}, {
		name:  "removing the highest bribe gives the contract to the next",
		g:     game{moves: moves(plain, `{"seat": 2, "remove": 1}`)},
		want:  outcome{round: 2, won: []string{"police", "school postoffice", "library"}},
		extra: wantEvents([]string{"removed 2 #3 #1"}, steps...),
	}, {
		name:  "passing",
		g:     game{moves: moves(plain, `{"seat": 2, "pass": true}`)},
		want:  outcome{round: 2, won: []string{"school police", "postoffice", "library"}},
		extra: wantEvents([]string{"passed 2 #3"}, steps...),
	}, {
		name: "not a character",
		g:    game{moves: moves(plain, `{"seat": 2, "remove": 3}`)},
		want: outcome{err: "move 19: seat 2", next: "remove 2 #3"},
	}, {
		name: "not a bribe under another contract",
		g:    game{moves: moves(plain, `{"seat": 2, "remove": 4}`)},
		want: outcome{err: "move 19: seat 2", next: "remove 2 #3"},
	}, {
		name: "only by its owner",
		g:    game{moves: moves(plain, `{"seat": 0, "remove": 2}`)},
		want: outcome{err: "move 19: seat 0 cannot", next: "remove 2 #3"},
	}, {
		name: "only by its owner, even to pass",
		g:    game{moves: moves(plain, `{"seat": 1, "pass": true}`)},
		want: outcome{err: "move 19: seat 1 cannot", next: "remove 2 #3"},
	}, {
		name: "its owner's own bribe",
		g: game{moves: moves(base("", "", "reporter:school 1000:school 2000:library 4000:library 6000:library 8000:library"),
			`{"seat": 2, "remove": 6}`)},
		want:  outcome{round: 2, won: []string{"school police", "postoffice", "library"}},
		extra: wantEvents([]string{"removed 2 #3 #6"}, steps...),
	}, {
		name:  "a reporter killed by a hit man does nothing",
		g:     game{moves: base("10000:school hitman:school 1000:police 2000:police 4000:police 6000:police", "", "")},
		want:  outcome{round: 2, won: []string{"school police", "postoffice", "library"}},
		extra: wantEvents([]string{"killed 0 #4 #3"}, steps...),
	}, {
		name:  "a reporter on a cancelled contract does nothing",
		g:     game{moves: base("", "8000:school da:school 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice", "")},
		want:  outcome{round: 2, won: []string{"police", "postoffice", "library"}, deferred: strp("school monument firehouse")},
		extra: wantEvents([]string{"cancelled school"}, steps...),
	}})

	// #1 seat 0's $10,000 and #4 its $6,000 under school; #2 and #3 the reporters of seats 1
	// and 2 there.
	two := turns(0,
		"10000:school 6000:school 1000:police 2000:police 4000:police 8000:police",
		"reporter:school 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice",
		"reporter:school 1000:library 2000:library 4000:library 6000:library 8000:library")
	runCases(t, []ruleCase{{
		name:  "two reporters act in play order",
		g:     game{moves: moves(two, `{"seat": 1, "remove": 1}`)},
		want:  outcome{next: "remove 2 #3"},
		extra: wantOptions(nil, []int{4}, ""),
	}, {
		name: "a bribe cannot be removed twice",
		g:    game{moves: moves(two, `{"seat": 1, "remove": 1}`, `{"seat": 2, "remove": 1}`)},
		want: outcome{err: "move 20: seat 2", next: "remove 2 #3"},
	}, {
		name:  "the second reporter removes the other bribe: school has none left",
		g:     game{moves: moves(two, `{"seat": 1, "remove": 1}`, `{"seat": 2, "remove": 4}`)},
		want:  outcome{round: 2, won: []string{"police", "postoffice", "library"}, deferred: strp("school monument firehouse")},
		extra: wantEvents([]string{"removed 1 #2 #1", "removed 2 #3 #4"}, steps...),
	}, {
		// One bribe (#1) under firehouse and two reporters (#2, #3): once it is removed, the
		// second reporter has nothing to remove and is not asked.
		name: "a reporter with nothing left to remove is not asked",
		g: game{moves: moves(turns(0,
			"10000:firehouse 1000:police 2000:police 4000:police 6000:police 8000:police",
			"reporter:firehouse 1000:postoffice 2000:postoffice 4000:postoffice 6000:postoffice 8000:postoffice",
			"reporter:firehouse 1000:library 2000:library 4000:library 6000:library 8000:library"),
			`{"seat": 1, "remove": 1}`)},
		want:  outcome{round: 2, won: []string{"police", "postoffice", "library"}, deferred: strp("school monument firehouse")},
		extra: wantEvents([]string{"removed 1 #2 #1"}, steps...),
	}})
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
