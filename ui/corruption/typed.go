package corruption

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"

	rules "corruption/engine/corruption"
)

// Typed moves: what a person types in a terminal (or sends as a move's "text"). Keywords are
// English or the board's language's ("pass", "pasar", "passer"); cards and places are found by
// any prefix of their ids or names, in English or in the board's language, accents aside
// ("expres" is the Interstate Expressway, "rep" a reporter, "swiss ci" City Hall's Swiss
// account), among what is on the table when the move is checked. An ambiguous prefix is
// refused with what it could be.

// typedPlace is a placement or an assignment as typed, to be found on the table.
type typedPlace struct {
	assign bool
	words  []string // the card's words and then the place's (assign: the contract's)
}

// keywords are the move keywords, English and the language's.
var keywords = []string{"pass", "peek", "kill", "remove", "assign", "faceup", "place"}

func (b Board) keyword(w string) string {
	for _, k := range keywords {
		if w == k || w == fold(b.say("kw."+k)) {
			return k
		}
	}
	return ""
}

// parseText reads a typed move: its kind and numbers now, its cards and places at Action.
func (b Board) parseText(text string) (move, error) {
	f := strings.Fields(fold(text))
	if len(f) == 0 {
		return move{}, errors.New(b.say("parse.empty"))
	}
	args := f[1:]
	kw := b.keyword(f[0])
	usage := func(n int, key string) error {
		if len(args) != n {
			return errors.New(b.say("parse.usage", "text", strings.TrimSpace(text), "usage", b.say(key)))
		}
		return nil
	}
	switch kw {
	case "pass":
		return move{b: b, m: rules.Move{Kind: rules.MovePass}}, usage(0, "usage.pass")
	case "peek", "kill", "remove":
		if err := usage(1, "usage."+kw); err != nil {
			return move{}, err
		}
		i, err := cardIndex(args[0])
		if err != nil {
			err = errors.New(b.say("parse.index", "n", args[0]))
		}
		return move{b: b, m: rules.Move{Kind: indexKinds[kw], Index: i}}, err
	case "assign":
		if len(args) == 0 {
			return move{}, usage(1, "usage.assign")
		}
		return move{b: b, typed: &typedPlace{assign: true, words: args}}, nil
	case "faceup":
		m, err := parseFaceUp(args)
		if err != nil {
			err = errors.New(b.say("parse.faceup", "n", rules.CardsPerRound))
		}
		return move{b: b, m: m}, err
	case "place":
		f = args
	}
	if len(f) < 2 {
		return move{}, errors.New(b.say("parse.notmove", "text", strings.TrimSpace(text), "syntax", b.say("syntax")))
	}
	return move{b: b, typed: &typedPlace{words: f}}, nil
}

// resolve finds a typed placement's card and place (or an assignment's contract) in v.
func (b Board) resolve(v rules.View, t typedPlace) (rules.Move, error) {
	if t.assign {
		c, err := b.matchContract(strings.Join(t.words, " "), v.AssignOptions())
		return rules.Move{Kind: rules.MoveAssign, Contract: c}, err
	}
	// The card is the first one to three words: the longest that names a card and leaves a
	// place ("hit man airport", "4000 interstate expressway").
	var cardErr, placeErr error
	for k := min(3, len(t.words)-1); k >= 1; k-- {
		card, err := b.matchCard(strings.Join(t.words[:k], " "))
		if err != nil {
			if cardErr == nil || k == 1 {
				cardErr = err
			}
			continue
		}
		spot, err := b.matchSpot(v, strings.Join(t.words[k:], " "))
		if err != nil {
			if placeErr == nil {
				placeErr = err
			}
			continue
		}
		return rules.Move{Kind: rules.MovePlace, Card: card, Spot: spot}, nil
	}
	if placeErr != nil {
		return rules.Move{}, placeErr
	}
	return rules.Move{}, cardErr
}

// candidate is a thing a person may name, by any of its names.
type candidate[T comparable] struct {
	thing T
	names []string // folded
	label string   // how an error names it
}

// match finds the one candidate that text names: exactly, else by a prefix of one of its
// names (spaces and hyphens aside).
func match[T comparable](text string, cs []candidate[T]) (T, []string, bool) {
	var zero T
	want := squash(fold(text))
	if want == "" {
		return zero, nil, false
	}
	for _, exact := range []bool{true, false} {
		var found []candidate[T]
		for _, c := range cs {
			for _, n := range c.names {
				n = squash(n)
				if n == want || (!exact && strings.HasPrefix(n, want)) {
					if !slices.ContainsFunc(found, func(f candidate[T]) bool { return f.thing == c.thing }) {
						found = append(found, c)
					}
					break
				}
			}
		}
		switch {
		case len(found) == 1:
			return found[0].thing, nil, true
		case len(found) > 1:
			labels := make([]string, len(found))
			for i, f := range found {
				labels[i] = f.label
			}
			return zero, labels, false
		}
	}
	return zero, nil, false
}

// matchCard finds a card: "4000", "$4,000", "4k", "da", "district attorney", "rep", "fiscal".
func (b Board) matchCard(text string) (rules.Card, error) {
	if m := typedAmount().FindStringSubmatch(squash(fold(text))); m != nil {
		n := strings.NewReplacer(",", "", ".", "").Replace(m[1])
		if m[2] != "" {
			n += "000"
		}
		if c, err := rules.ParseCard(n); err == nil && c.IsBribe() {
			return c, nil
		}
		return 0, errors.New(b.say("parse.card", "text", text))
	}
	var cs []candidate[rules.Card]
	for c := rules.Bribe1000; c <= rules.HitMan; c++ {
		names := []string{c.String(), fold(c.Words()), fold(b.cardWords(c))}
		if !c.IsBribe() {
			names = append(names, fold(b.cardLabel(c)))
		}
		cs = append(cs, candidate[rules.Card]{thing: c, names: names, label: c.String()})
	}
	c, amb, ok := match(text, cs)
	if ok {
		return c, nil
	}
	if len(amb) > 0 {
		return 0, errors.New(b.say("parse.card.ambiguous", "text", text, "list", strings.Join(amb, ", ")))
	}
	return 0, errors.New(b.say("parse.card", "text", text))
}

// matchSpot finds a place on the table: a contract by id or name, or a Swiss account
// ("swiss:city", "swiss county", "suiza alcaldía").
func (b Board) matchSpot(v rules.View, text string) (rules.Spot, error) {
	t := fold(text)
	for _, sw := range []string{"swiss", fold(b.say("kw.swiss"))} {
		if rest, ok := strings.CutPrefix(t, sw); ok && (rest == "" || rest[0] == ':' || rest[0] == ' ') {
			return b.matchSwiss(strings.TrimLeft(rest, ": "), text)
		}
	}
	var cs []candidate[rules.Spot]
	for _, c := range v.Table() {
		cs = append(cs, candidate[rules.Spot]{thing: rules.ContractSpot(c), names: b.contractNames(c), label: c.String()})
	}
	s, amb, ok := match(t, cs)
	switch {
	case ok:
		return s, nil
	case len(amb) > 0:
		return 0, errors.New(b.say("parse.place.ambiguous", "text", text, "list", strings.Join(amb, ", ")))
	}
	// A contract that is not on the table, or nothing.
	var all []candidate[rules.Contract]
	for c := rules.Contract(0); c < rules.NumContracts; c++ {
		all = append(all, candidate[rules.Contract]{thing: c, names: b.contractNames(c), label: c.String()})
	}
	if c, _, ok := match(t, all); ok {
		return 0, errors.New(b.say("err.place.table", "place", b.contractName(c)))
	}
	return 0, errors.New(b.say("parse.place", "text", text, "list", b.placeList(v)))
}

func (b Board) matchSwiss(body, text string) (rules.Spot, error) {
	var cs []candidate[rules.Body]
	for bd := rules.Body(0); bd < rules.NumBodies; bd++ {
		cs = append(cs, candidate[rules.Body]{thing: bd, names: []string{bd.String(), fold(bd.Name()), fold(b.bodyName(bd)), fold(b.say("kw.body." + bd.String()))}, label: "swiss:" + bd.String()})
	}
	bd, amb, ok := match(body, cs)
	switch {
	case ok:
		return rules.SwissSpot(bd), nil
	case len(amb) > 0:
		return 0, errors.New(b.say("parse.place.ambiguous", "text", text, "list", strings.Join(amb, ", ")))
	}
	return 0, errors.New(b.say("parse.swiss", "text", text))
}

// matchContract finds one of the contracts cs by id or name.
func (b Board) matchContract(text string, cs []rules.Contract) (rules.Contract, error) {
	var cands []candidate[rules.Contract]
	for _, c := range cs {
		cands = append(cands, candidate[rules.Contract]{thing: c, names: b.contractNames(c), label: c.String()})
	}
	c, amb, ok := match(text, cands)
	switch {
	case ok:
		return c, nil
	case len(amb) > 0:
		return 0, errors.New(b.say("parse.place.ambiguous", "text", text, "list", strings.Join(amb, ", ")))
	}
	// A contract the Swiss bribe cannot go to: check says so, with the reason.
	for k := rules.Contract(0); k < rules.NumContracts; k++ {
		if _, _, ok := match(text, []candidate[rules.Contract]{{thing: k, names: b.contractNames(k)}}); ok {
			return k, nil
		}
	}
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.String()
	}
	return 0, errors.New(b.say("parse.contract", "text", text, "list", strings.Join(ids, ", ")))
}

func (b Board) contractNames(c rules.Contract) []string {
	return []string{c.String(), fold(c.Name()), fold(b.contractName(c))}
}

// placeList lists the places on the table by id.
func (b Board) placeList(v rules.View) string {
	var ids []string
	for _, c := range v.Table() {
		ids = append(ids, c.String())
	}
	for bd := rules.Body(0); bd < rules.NumBodies; bd++ {
		ids = append(ids, rules.SwissSpot(bd).String())
	}
	return strings.Join(ids, " ")
}

// fold lowers a text and drops its accents, to match what is typed against names.
func fold(s string) string {
	return accents.Replace(strings.ToLower(strings.TrimSpace(s)))
}

var accents = strings.NewReplacer("á", "a", "à", "a", "â", "a", "ä", "a", "é", "e", "è", "e", "ê", "e", "ë", "e",
	"í", "i", "î", "i", "ï", "i", "ó", "o", "ô", "o", "ö", "o", "ú", "u", "ù", "u", "û", "u", "ü", "u",
	"ñ", "n", "ç", "c", "œ", "oe", "’", "'")

// squash drops the spaces, hyphens and apostrophes of a folded name.
func squash(s string) string {
	return strings.NewReplacer(" ", "", "-", "", "'", "", "_", "").Replace(s)
}

// typedAmount is a bribe typed as an amount: "4000", "$4,000", "4.000", "4k". It is compiled at its
// first use, not at the program's start: a phone's seat, which types nothing, spent a tenth of
// a second of its start on it (4x throttled; docs/PERFORMANCE.md, "The browser seat").
var typedAmount = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\$?(\d{1,2}(?:[.,]?\d{3})?)(k?)\$?$`) })
