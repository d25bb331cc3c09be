package corruption

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	rules "corruption/engine/corruption"
	"corruption/protocol"
	"corruption/ui"
)

// TestTerminal: the shell's terminal with Corruption's text board shows one compact screen (the
// board a line a place, the cards that go to the same places on one line), refuses what is not
// a legal move with the reason, in words that say "you", takes the first legal one and encodes
// it for the table, and gives up when its input ends.
func TestTerminal(t *testing.T) {
	tb := newTable(t, 3, rules.Standard, false)
	var out strings.Builder
	term := ui.NewTerminal(Board{}, strings.NewReader("help\nbribe the mayor\nda swiss:city\n\n2000 swiss:county\n"), &out)
	defer term.Close()
	term.Update(protocol.Status{Table: "t", Seat: 0, Names: []string{"ann", "bob", "cy"}, State: tb.game(0)})
	a, err := term.Decide(context.Background(), tb.game(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := rules.DecodeMove(0, a.Move)
	want := rules.Move{Kind: rules.MovePlace, Seat: 0, Card: rules.CardUnknown, Spot: rules.SwissCounty}
	if err != nil || m != want || len(a.Hidden) != 1 || string(a.Hidden[0]) != "2000" {
		t.Fatalf("Decide = %+v (%+v, %v); want a face-down $2,000 on the County Seat's Swiss account", a, m, err)
	}
	for _, w := range []string{"Round 1 of 4 · Corruption", "City Hall · Swiss account (swiss:city): —", "school       Elementary School $100,000: —",
		"Your hand: 1000 2000", "1000 2000 4000 6000 8000 10000 → school monument library firehouse police postoffice swiss:city",
		"da reporter hitman → school monument", "for example: 1000 school", `error: No card "bribe"`,
		"error: District attorney goes only under a contract, never on a Swiss account.", "Moves: CARD PLACE", "Ctrl-C leaves the table", "Scores: \u2068ann\u2069 (seat 0) (you) $0 · \u2068bob\u2069 (seat 1) $0 · \u2068cy\u2069 (seat 2) $0"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the terminal does not show %q:\n%s", w, out.String())
		}
	}
	if strings.Count(out.String(), "seat 0") != strings.Count(out.String(), "\u2068ann\u2069 (seat 0)") {
		t.Errorf("the terminal calls the person seat 0 without its name:\n%s", out.String())
	}
	if n := strings.Count(strings.SplitN(out.String(), "> ", 2)[0], "\n"); n > 20 {
		t.Errorf("the screen of a decision is %d lines, want at most 20:\n%s", n, out.String())
	}
	if _, err := term.Decide(context.Background(), tb.game(0), 0); !errors.Is(err, io.EOF) {
		t.Errorf("Decide at the end of the input: %v", err)
	}
}

// TestTypedMoves: cards and places are found by any start of their ids or names, in English or
// in the board's language, and an ambiguous or unknown one is refused with what it could be.
func TestTypedMoves(t *testing.T) {
	tb := newTable(t, 3, rules.Standard, false)
	// Round 1's table: school, monument (City Hall), library, firehouse (County Seat), police,
	// postoffice (Capitol).
	for _, tt := range []struct {
		lang, text string
		want       rules.Move
		err        string
	}{
		{lang: "en", text: "4000 sch", want: rules.Move{Kind: rules.MovePlace, Card: rules.Bribe4000, Spot: 0}},
		{lang: "en", text: "rep elementary school", want: rules.Move{Kind: rules.MovePlace, Card: rules.Reporter, Spot: 0}},
		{lang: "en", text: "hit man Fire Station", want: rules.Move{Kind: rules.MovePlace, Card: rules.HitMan, Spot: 3}},
		{lang: "en", text: "district attorney post", want: rules.Move{Kind: rules.MovePlace, Card: rules.DA, Spot: 5}},
		{lang: "en", text: "$8,000 swiss county", want: rules.Move{Kind: rules.MovePlace, Card: rules.Bribe8000, Spot: rules.SwissCounty}},
		{lang: "en", text: "10k swiss:cap", want: rules.Move{Kind: rules.MovePlace, Card: rules.Bribe10000, Spot: rules.SwissCapitol}},
		{lang: "en", text: "place 1000 MONUMENT", want: rules.Move{Kind: rules.MovePlace, Card: rules.Bribe1000, Spot: 1}},
		{lang: "es", text: "sicario biblio", want: rules.Move{Kind: rules.MovePlace, Card: rules.HitMan, Spot: 2}},
		{lang: "es", text: "2000 suiza alcaldia", want: rules.Move{Kind: rules.MovePlace, Card: rules.Bribe2000, Spot: rules.SwissCity}},
		{lang: "fr", text: "juge caserne", want: rules.Move{Kind: rules.MovePlace, Card: rules.DA, Spot: 3}},
		{lang: "fr", text: "4000 suisse:état", want: rules.Move{Kind: rules.MovePlace, Card: rules.Bribe4000, Spot: rules.SwissCapitol}},
		{lang: "en", text: "4000 p", err: `"p" could be library, police, postoffice`},
		{lang: "en", text: "4000 airport", err: "Airport is not on the table this round."},
		{lang: "en", text: "4000 atlantis", err: `Unknown place "atlantis": the places on the table are school monument library firehouse police postoffice swiss:city swiss:county swiss:capitol.`},
		{lang: "en", text: "1 school", err: `No card "1"`},
		{lang: "en", text: "4000 swiss:moon", err: "which Swiss account?"},
		{lang: "es", text: "4000 aeropuerto", err: "Aeropuerto no está en la mesa esta ronda."},
		{lang: "fr", text: "passer 2", err: "passer, seul"},
	} {
		mv, err := In(tt.lang).parseText(tt.text)
		var got rules.Move
		if err == nil && mv.typed != nil {
			got, err = mv.b.resolve(tb.view(0), *mv.typed)
		}
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s %q: %v, want an error with %q", tt.lang, tt.text, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%s %q = %+v, %v; want %+v", tt.lang, tt.text, got, err, tt.want)
		}
	}
}

// TestTerminalLanguage: the terminal speaks the language it is set to, shell and board alike.
func TestTerminalLanguage(t *testing.T) {
	tb := newTable(t, 3, rules.Standard, false)
	for lang, words := range map[string][]string{
		"es": {"Ronda 1 de 4 · Corrupción", "Alcaldía · cuenta suiza", "Tu mano:", "por ejemplo: 1000 school", "error: No hay carta"},
		"fr": {"Manche 1 sur 4 · Corruption", "Municipalité · compte en Suisse", "Votre main :", "par exemple : 1000 school", "erreur : Pas de carte"},
	} {
		var out strings.Builder
		term := ui.NewTerminal(Board{}, strings.NewReader("xyz airport\n1000 escuela\n"), &out)
		term.SetLang(lang)
		_, err := term.Decide(context.Background(), tb.game(0), 0)
		term.Close()
		if lang == "es" && err != nil {
			t.Errorf("%s: %v", lang, err)
		}
		for _, w := range words {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: the terminal does not show %q:\n%s", lang, w, out.String())
			}
		}
	}
}
