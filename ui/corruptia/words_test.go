package corruptia

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/ui"
)

var argRE = regexp.MustCompile(`\{(\w+)\}`)

// TestWords: every language has every English word, with no argument English does not give; the English names
// of the bills, parties and blackmail cards are the game's data (data/*.csv), and every other
// language names each of them.
func TestWords(t *testing.T) {
	en := words.Keys("en")
	for _, lang := range ui.Languages {
		w := words.Keys(lang)
		for k, text := range en {
			tr, ok := w[k]
			switch {
			case !ok || tr == "":
				t.Errorf("%s: no %q", lang, k)
			default:
				for _, a := range args(tr) {
					if !slices.Contains(args(text), a) {
						t.Errorf("%s: %q takes {%s}, which English does not give", lang, k, a)
					}
				}
			}
		}
		for k := range w {
			if _, ok := en[k]; !ok {
				t.Errorf("%s: %q is not an English word", lang, k)
			}
		}
	}
	for b := rules.Bill(0); b < rules.NumBills; b++ {
		if got := en["bill."+b.String()]; got != b.Title() {
			t.Errorf("bill.%s is %q, the data's title %q", b, got, b.Title())
		}
	}
	for s := range rules.MaxPlayers {
		p := rules.PartyOf(s)
		if en[fmt.Sprintf("party.%d", s)] != p.Name {
			t.Errorf("party.%d is %q, the data's %q", s, en[fmt.Sprintf("party.%d", s)], p.Name)
		}
		for k, title := range p.Blackmail {
			if key := fmt.Sprintf("bm.%d.%d", s, k+1); en[key] != title {
				t.Errorf("%s is %q, the data's %q", key, en[key], title)
			}
		}
	}
}

func args(s string) []string {
	var out []string
	for _, m := range argRE.FindAllStringSubmatch(s, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

// jargon is what a person should never read: a bill's id, a cell's coordinates, officials
// written as "$3×6", a word left with its braces or as its key.
var jargon = regexp.MustCompile(`\b(cul|def|eco|edu|env)\d\d\b|\(-?\d+, ?-?\d+\)|\$\d×\d|\{\w+\}|\b(ev|why|prompt|next|place|err|text|bill|dept|vote|bm|party)\.[a-z]`)

// idFields are the fields of the page's state that are ids for its script, never shown.
var idFields = map[string]bool{"bill": true, "dept": true, "key": true, "worker": true, "kind": true, "vote": true, "votes": true,
	"demand": true, "die": true, "pressed": true, "example": true, "cells": true}

// texts are the string values of a JSON document, but for its id fields (and the keys of its
// objects, which are ids too).
func texts(v any, field string, out *[]string) {
	switch x := v.(type) {
	case string:
		if !idFields[field] {
			*out = append(*out, x)
		}
	case []any:
		for _, e := range x {
			texts(e, field, out)
		}
	case map[string]any:
		for k, e := range x {
			if field == "sources" || field == "why" {
				k = field + " by cell" // a map by cell: its keys are ids
			}
			texts(e, k, out)
		}
	}
}

// TestPlainWords: whole games of 2 to 5 senators among bots, told and drawn for every seat,
// every few steps in another language: no text of the page's state, its decision or its log holds a bill's id, a
// cell's coordinates or a word's key; in Spanish and French none is an English sentence of the
// board's words whose translation differs; the free places of every decision are said each in
// its own words; every bill the person cannot propose, every cell where a bill cannot go and
// every blackmail card that cannot be played says why.
func TestPlainWords(t *testing.T) {
	english := map[string]string{}
	for k, v := range words.Keys("en") {
		if strings.Count(v, " ") >= 2 && !argRE.MatchString(v) {
			english[v] = k
		}
	}
	for n := rules.MinPlayers; n <= rules.MaxPlayers; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var events []rules.Event
			g, err := rules.NewGame(rules.DefaultConfig(), n, func(e engine.Event) {
				if ce, ok := e.Data.(rules.Event); ok {
					events = append(events, ce)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			h := rules.NewHost(g)
			chance := rules.Seeded(uint64(n), 11)
			bots := make([]bot.Bot, n)
			for s := range bots {
				bots[s], _ = bot.New("heuristic", uint64(20*n+s))
			}
			names := names5[:n]
			check := func(lang, where string, ts []string) {
				t.Helper()
				for _, s := range ts {
					if m := jargon.FindString(s); m != "" {
						t.Fatalf("%s, %s: %q says %q", lang, where, s, m)
					}
					if k, ok := english[s]; ok && lang != "en" && words.Say(lang, k) != s {
						t.Fatalf("%s, %s: %q is English (%s)", lang, where, s, k)
					}
				}
			}
			toldUpTo := 0
			for step := 0; ; step++ {
				if err := h.Run(chance); err != nil {
					t.Fatal(err)
				}
				st := g.Due()
				if st.Kind == engine.StepOver {
					break
				}
				if step%4 == 0 {
					for _, lang := range []string{ui.Languages[step/4%len(ui.Languages)]} {
						b := In(lang)
						for s := range n {
							var ts []string
							js, _ := json.Marshal(struct {
								D ui.Drawing
								X any
							}{b.Draw(g, s, names), b.Decision(g, s, names)})
							var doc any
							if err := json.Unmarshal(js, &doc); err != nil {
								t.Fatal(err)
							}
							texts(doc, "", &ts)
							check(lang, fmt.Sprintf("step %d, seat %d's page", step, s), ts)
							if d, ok := b.Decision(g, s, names).(*Decision); ok {
								checkReasons(t, d)
							}
						}
						var told []string
						for _, e := range events[toldUpTo:] {
							told = append(told, b.to(names, 0).describe(e))
						}
						toldUpTo = len(events)
						check(lang, "the log", told)
					}
				}
				voting := st.Kind == engine.StepChoose
				if voting {
					votes := make([]rules.Vote, n)
					for _, s := range st.Seats {
						votes[s] = bots[s].Vote(g.View(s))
					}
					err = h.Votes(votes)
				} else {
					err = h.Move(st.Seat, bots[st.Seat].Decide(g.View(st.Seat)))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// checkReasons fails unless decision d says, in its own words, each free place, and why for
// each choice the person cannot make.
func checkReasons(t *testing.T, d *Decision) {
	t.Helper()
	places := map[string]bool{}
	for _, p := range d.Places {
		if places[p.Place] {
			t.Fatalf("two places are said %q", p.Place)
		}
		places[p.Place] = true
	}
	for _, b := range d.Bills {
		if len(d.Places) == 0 {
			continue
		}
		if len(b.Cells) == 0 && b.Unplayable == "" {
			t.Fatalf("%s fits nowhere, and nothing says why", b.Title)
		}
		for _, p := range d.Places {
			if !slices.Contains(b.Cells, p.Key) && b.Why[p.Key] == "" {
				t.Fatalf("%s cannot go %s, and nothing says why", b.Title, p.Place)
			}
			if slices.Contains(b.Cells, p.Key) && b.Why[p.Key] != "" {
				t.Fatalf("%s can go %s, yet a reason says it cannot: %s", b.Title, p.Place, b.Why[p.Key])
			}
		}
	}
	if d.Kind == "respond" && !d.CanOffer && d.OfferWhy == "" {
		t.Fatal("the offer is refused, and nothing says why")
	}
	if d.Kind == "negotiate" && !d.CanAmend && d.AmendWhy == "" {
		t.Fatal("the amendment is refused, and nothing says why")
	}
	for _, v := range d.Votes {
		if v.Vote == "absent" && v.Why == "" && strings.Contains(d.Prompt, "needs an approval token") {
			t.Fatal("absent is refused in the prompt, but not beside its button")
		}
	}
}

// TestPoints: every score the page shows is broken down as the rule sheet counts it, and the
// parts add up to it; each department's blocks make its value.
func TestPoints(t *testing.T) {
	g := gameAt(t, func(g *rules.Game) bool { return g.Next().Kind == rules.DecideNothing })
	for seat := range g.Players() {
		v := g.View(seat)
		for s := range v.Players {
			p := Board{}.points(v, s)
			if got := p.Approval + p.Employees + p.Property; got != v.Scores[s] {
				t.Errorf("seat %d sees seat %d's points %+v, which add up to %d, not its score %d", seat, s, p, got, v.Scores[s])
			}
		}
	}
	blocks := deptBlocks(g.View(0).Program)
	values := g.View(0).Program.Values()
	for d, bs := range blocks {
		sum := 0
		for _, b := range bs {
			sum += b[0] * b[1]
		}
		if sum != values[d] {
			t.Errorf("%s's blocks %v add up to %d, its value is %d", rules.Department(d), bs, sum, values[d])
		}
	}
	if len(slices.Collect(maps.Keys(words.Keys("en")))) == 0 {
		t.Fatal("no words")
	}
}

// TestPictureSamples: the bills the rules panel draws (static/pictures.js) are data/bills.csv's:
// their departments, incomes and budgets.
func TestPictureSamples(t *testing.T) {
	js, err := fs.ReadFile(Board{}.Assets(), "pictures.js")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(\w{3}\d\d): \{dept: '(\w+)', income: (\d), budget: \[(\d), (\d), (\d)\]\}`)
	ms := re.FindAllStringSubmatch(string(js), -1)
	if len(ms) < 3 {
		t.Fatalf("pictures.js draws %d bills of the data", len(ms))
	}
	for _, m := range ms {
		b, err := rules.ParseBill(m[1])
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("%s %s [%s %s %s]", m[2], m[3], m[4], m[5], m[6])
		if want := fmt.Sprintf("%s %d %v", b.Department(), b.Income(), b.Budget()); got != want {
			t.Errorf("pictures.js draws %s as %s, the data says %s", m[1], got, want)
		}
	}
}

// TestYouInWords: the person is never named with the subject's pronoun where another form
// belongs: voting on its own proposal it reads "your proposal" in each language ("Vote on
// you's proposal", "la propuesta de tú" and "la proposition de vous" were what the words made
// of it), and a blackmail card played on it is played "on you" as each language says it after
// a preposition (Spanish "sobre ti", never "sobre tú"), in the log and in the negotiation.
func TestYouInWords(t *testing.T) {
	wrong := regexp.MustCompile(`(?i)you's|\bde tú|\bsobre tú|\bde vous\b`)
	g := gameAt(t, due(rules.DecideVote))
	me := g.View(0).Active
	names := names5[:g.Players()]
	vote := map[string]string{"en": "Vote on your proposal, ", "es": "Vota tu propuesta, ", "fr": "Votez sur votre proposition, "}
	on := map[string]string{"en": " on you: ", "es": " sobre ti: ", "fr": " sur vous : "}
	for _, lang := range ui.Languages {
		b := In(lang)
		d, ok := b.Decision(g, me, names).(*Decision)
		if !ok || d.Kind != "vote" {
			t.Fatalf("%s: seat %d, whose proposal it is, is asked %+v, not its vote", lang, me, d)
		}
		if !strings.HasPrefix(d.Prompt, vote[lang]) || wrong.MatchString(d.Prompt) {
			t.Errorf("%s: the person votes on its own proposal, and reads %q (want it to begin %q)", lang, d.Prompt, vote[lang])
		}
		other := (me + 1) % g.Players()
		if d, ok := b.Decision(g, other, names).(*Decision); !ok || !strings.Contains(d.Prompt, names[me]) {
			t.Errorf("%s: another senator votes on %s's proposal, and reads %+v", lang, names[me], d)
		}
		// A card played on the person by another, told in the log and drawn in the negotiation.
		e := rules.Event{Kind: rules.EventBlackmail, Seat: other, Target: me, Title: "Secret", Vote: rules.VoteYes}
		told := b.to(names, me).describe(e)
		if !strings.Contains(told, on[lang]) || wrong.MatchString(told) {
			t.Errorf("%s: a card played on the person is told %q (want %q in it)", lang, told, on[lang])
		}
		v := g.View(me)
		v.Pressed[me], v.PressedBy[me] = rules.VoteYes, other
		drawn := 0
		for _, p := range b.to(names, me).proposalOf(v, *v.Proposal).Pressed {
			if p.Seat != me {
				continue
			}
			drawn++
			if !strings.Contains(p.Text, on[lang]) || wrong.MatchString(p.Text) {
				t.Errorf("%s: a card played on the person is drawn %q (want %q in it)", lang, p.Text, on[lang])
			}
		}
		if drawn != 1 {
			t.Errorf("%s: a card played on the person is drawn %d times in the negotiation", lang, drawn)
		}
	}
}
