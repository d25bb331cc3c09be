package script_test

// The scenario script format (issue 2): Parse rejects malformed scripts with an error that says
// where; Marshal writes what Parse reads back; Run reports illegal moves as "move K: ...".

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/script"
)

const deck = `["school", "monument", "library", "firehouse", "police", "postoffice", "courthouse",
 "hospital", "housing", "opera", "museum", "sewer", "streetcar", "university", "waterworks", "stadium",
 "harbor", "bridge", "convention", "powerplant", "subway", "expressway", "airport", "dam"]`

// doc is a script with the given moves (a JSON array's contents) and header fields replaced.
func doc(moves string, header ...string) string {
	h := map[string]string{"players": "3", "variant": `"standard"`, "little_black_book": "false", "deck": deck, "first": "0"}
	for i := 0; i+1 < len(header); i += 2 {
		h[header[i]] = header[i+1]
	}
	var b strings.Builder
	b.WriteString("{")
	for _, k := range []string{"players", "variant", "little_black_book", "deck", "first"} {
		if v := h[k]; v != "-" {
			b.WriteString(`"` + k + `": ` + v + ",\n")
		}
	}
	b.WriteString(`"moves": [` + moves + "]}")
	return b.String()
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name   string
		in     string
		prefix string // the error begins with this
		has    string // and mentions this
	}{
		// Where the JSON is malformed: line and column of the offending character.
		{"syntax: a missing comma", "{\"players\": 3,\n  \"deck\": [\"school\" \"monument\"]}", "line 2, column 21: ", ""},
		{"syntax: a bad character", "{\n\"players\": 3,\n  x}", "line 3, column 3: ", ""},
		{"syntax: a missing comma in a move", doc(`{"seat": 0 "card": "1000", "on": "school"}`), "line 8, column 22: ", ""},
		{"syntax: cut short", doc(`{"seat": 0`)[:len(doc(`{"seat": 0`))-2], "line 8", ""},
		{"a value of the wrong type", `{"players": "three"}`, "line 1, column 13", "players"},
		{"empty", "", "", ""},
		{"not an object", `[1, 2]`, "", ""},
		{"data after the script", doc("") + ` {}`, "", ""},
		{"data after the script (garbage)", doc("") + ` x`, "", ""},
		// Fields.
		{"an unknown field", `{"colour": "red", ` + doc("")[1:], "", `"colour"`},
		{"an unknown field in a move", doc(`{"seat": 0, "card": "1000", "on": "school", "face": "up"}`), "move 1: ", `"face"`},
		{"a field name in capitals", strings.Replace(doc(""), `"players"`, `"Players"`, 1), "", "Players"},
		{"a field given twice", `{"players": 3, ` + doc("")[1:], "", `"players" appears twice`},
		{"a field given twice in a move", doc(`{"seat": 0, "seat": 1, "card": "1000", "on": "school"}`), "move 1: ", `"seat" appears twice`},
		{"missing players", doc("", "players", "-"), "", "players"},
		{"missing deck", doc("", "deck", "-"), "", "deck"},
		{"missing first", doc("", "first", "-"), "", "first"},
		{"missing moves", `{"players": 3, "deck": ` + deck + `, "first": 0}`, "", "moves"},
		{"null moves", `{"players": 3, "deck": ` + deck + `, "first": 0, "moves": null}`, "", "moves"},
		{"moves not a list", `{"players": 3, "deck": ` + deck + `, "first": 0, "moves": {}}`, "", "moves"},
		// The header's values.
		{"an unknown variant", doc("", "variant", `"texas"`), "", "texas"},
		{"an unknown contract in the deck", doc("", "deck", strings.Replace(deck, `"dam"`, `"castle"`, 1)), "", "castle"},
		{"a contract twice in the deck", doc("", "deck", strings.Replace(deck, `"dam"`, `"school"`, 1)), "", "school"},
		{"a short deck", doc("", "deck", strings.Replace(deck, `, "dam"`, ``, 1)), "", "deck"},
		{"two players", doc("", "players", "2"), "", "players"},
		{"eight players", doc("", "players", "8"), "", "players"},
		{"first player not at the table", doc("", "first", "3"), "", "first"},
		{"closed with the little black book", doc("", "variant", `"closed"`, "little_black_book", "true"), "", "little black book"},
		// Moves.
		{"a move that is not an object", doc(`{"seat": 0, "card": "1000", "on": "school"}, 5`), "move 2: ", ""},
		{"a move without a seat", doc(`{"seat": 0, "card": "1000", "on": "school"}, {"card": "1000", "on": "school"}`), "move 2: ", "seat"},
		{"a seat that is not a number", doc(`{"seat": "zero", "pass": true}`), "move 1: ", "seat"},
		{"an unknown card", doc(`{"seat": 0, "card": "1500", "on": "school"}`), "move 1: ", `"1500"`},
		{"an unknown place", doc(`{"seat": 0, "card": "1000", "on": "swiss:state"}`), "move 1: ", `"swiss:state"`},
		{"an unknown contract to assign to", doc(`{"seat": 0, "assign": "castle"}`), "move 1: ", `"castle"`},
		{"a card without a place", doc(`{"seat": 0, "card": "1000"}`), "move 1: ", ""},
		{"a place without a card", doc(`{"seat": 0, "on": "school"}`), "move 1: ", ""},
		{"a move with two actions", doc(`{"seat": 0, "card": "1000", "on": "school", "pass": true}`), "move 1: ", ""},
		{"a move with two actions (peek and kill)", doc(`{"seat": 0, "peek": 1, "kill": 2}`), "move 1: ", ""},
		{"a move with no action", doc(`{"seat": 0}`), "move 1: ", ""},
		{"a pass that is false", doc(`{"seat": 0, "pass": false}`), "move 1: ", ""},
		{"a face-up position 7", doc(`{"seat": 0, "faceup": [1, 7]}`), "move 1: ", "7"},
		{"a face-up position 0", doc(`{"seat": 0, "faceup": [0]}`), "move 1: ", "0"},
		{"a face-up position twice", doc(`{"seat": 0, "faceup": [2, 2]}`), "move 1: ", "2"},
		{"a peek that is not a number", doc(`{"seat": 0, "peek": "one"}`), "move 1: ", "peek"},
		{"the third move is bad", doc(`{"seat": 0, "card": "1000", "on": "school"}, {"seat": 1, "card": "1000", "on": "school"}, {"seat": 2, "kill": "x"}`), "move 3: ", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := script.Parse([]byte(tc.in))
			if err == nil {
				t.Fatalf("parsed: %+v", sc)
			}
			if sc != nil {
				t.Errorf("a script came back with the error")
			}
			var pe *script.ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %q (%T) is not a *script.ParseError", err, err)
			}
			if !strings.HasPrefix(err.Error(), tc.prefix) {
				t.Errorf("error %q, want it to begin %q", err, tc.prefix)
			}
			if !strings.Contains(err.Error(), tc.has) {
				t.Errorf("error %q does not mention %s", err, tc.has)
			}
			if strings.Contains(err.Error(), "json: ") {
				t.Errorf("error %q shows the decoder's prefix", err)
			}
		})
	}
}

func TestParse(t *testing.T) {
	in := `{"players": 4, "variant": "free-stud", "little_black_book": true, "deck": ` + deck + `, "first": 2,
	"moves": [
	  {"seat": 2, "faceup": [1, 3]},
	  {"seat": 2, "card": "8000", "on": "swiss:county"},
	  {"seat": 3, "peek": 1},
	  {"seat": 3, "card": "da", "on": "school"},
	  {"seat": 0, "assign": "monument"},
	  {"seat": 1, "kill": 7},
	  {"seat": 3, "remove": 12},
	  {"seat": 1, "pass": true},
	  {"seat": 0, "faceup": []}
	]}`
	sc, err := script.Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if c := sc.Config; c.Players != 4 || c.Variant != corruption.FreeStud || !c.LittleBlackBook || c.First != 2 ||
		len(c.Deck) != 24 || c.Deck[0] != mustContract(t, "school") || c.Deck[23] != mustContract(t, "dam") {
		t.Errorf("config %+v", c)
	}
	ps13, _ := corruption.PositionsOf(1, 3)
	want := []corruption.Move{
		{Kind: corruption.MoveFaceUp, Seat: 2, Positions: ps13},
		{Kind: corruption.MovePlace, Seat: 2, Card: corruption.Bribe8000, Spot: corruption.SwissSpot(corruption.County)},
		{Kind: corruption.MovePeek, Seat: 3, Index: 1},
		{Kind: corruption.MovePlace, Seat: 3, Card: corruption.DA, Spot: corruption.ContractSpot(mustContract(t, "school"))},
		{Kind: corruption.MoveAssign, Seat: 0, Contract: mustContract(t, "monument")},
		{Kind: corruption.MoveKill, Seat: 1, Index: 7},
		{Kind: corruption.MoveRemove, Seat: 3, Index: 12},
		{Kind: corruption.MovePass, Seat: 1},
		{Kind: corruption.MoveFaceUp, Seat: 0, Positions: 0},
	}
	if !reflect.DeepEqual(sc.Moves, want) {
		t.Errorf("moves\n%+v\nwant\n%+v", sc.Moves, want)
	}
	// Marshal writes it back; Parse reads the same script.
	out, err := sc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := script.Parse(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, sc) {
		t.Errorf("round trip: %+v, want %+v", back, sc)
	}
	// The variant and the little black book are optional (standard, without).
	sc, err = script.Parse([]byte(`{"players": 3, "deck": ` + deck + `, "first": 1, "moves": []}`))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Config.Variant != corruption.Standard || sc.Config.LittleBlackBook || len(sc.Moves) != 0 {
		t.Errorf("defaults: %+v", sc)
	}
}

func TestMarshalOnlyScriptMoves(t *testing.T) {
	sc, err := script.Parse([]byte(doc("")))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []corruption.Move{
		{Kind: corruption.MoveReveal, Seat: 0, Index: 1, Card: corruption.Bribe1000},
		{Kind: corruption.MoveDeal},
	} {
		sc.Moves = []corruption.Move{{Kind: corruption.MovePass, Seat: 1}, m}
		if out, err := sc.Marshal(); err == nil {
			t.Errorf("%s marshals: %s", m.Kind, out)
		} else if !strings.HasPrefix(err.Error(), "move 2: ") {
			t.Errorf("error %q, want it to begin \"move 2: \"", err)
		}
	}
}

func TestRunErrors(t *testing.T) {
	cases := []struct {
		moves  string
		prefix string
		plays  int // cards on the table in the state returned: the state before the bad move
	}{
		{`{"seat": 1, "card": "1000", "on": "school"}`, "move 1: seat 1 cannot place a card", 0},
		{`{"seat": 0, "card": "1000", "on": "school"}, {"seat": 1, "card": "2000", "on": "school"}, {"seat": 2, "card": "da", "on": "swiss:city"}`,
			"move 3: seat 2 cannot place a district attorney on swiss:city", 2},
		{`{"seat": 0, "card": "1000", "on": "school"}, {"seat": 1, "card": "1000", "on": "dam"}`, "move 2: seat 1 cannot place", 1},
		{`{"seat": 0, "card": "1000", "on": "school"}, {"seat": 1, "card": "1000", "on": "school"}, {"seat": 2, "card": "1000", "on": "school"}, {"seat": 0, "card": "1000", "on": "school"}`,
			"move 4: seat 0 ", 3},
		{`{"seat": 0, "peek": 1}`, "move 1: seat 0 cannot peek", 0},
		{`{"seat": 5, "pass": true}`, "move 1: seat 5 ", 0},
	}
	for _, tc := range cases {
		sc, err := script.Parse([]byte(doc(tc.moves)))
		if err != nil {
			t.Fatal(err)
		}
		s, err := sc.Run()
		if err == nil || !strings.HasPrefix(err.Error(), tc.prefix) {
			t.Errorf("%s: error %v, want it to begin %q", tc.moves, err, tc.prefix)
			continue
		}
		var me *corruption.MoveError
		if !errors.As(err, &me) {
			t.Errorf("%s: %q does not wrap the *corruption.MoveError", tc.moves, err)
		}
		if s == nil || s.NumPlays() != tc.plays {
			t.Errorf("%s: the state returned is not the one before the bad move", tc.moves)
		}
		var re *script.ReplayError
		sum, err2 := sc.Replay()
		if !errors.As(err, &re) || sum == nil || sum.Error == nil || err2.Error() != err.Error() ||
			sum.Error.Move != re.Move || sum.Finished || sum.Next == nil {
			t.Errorf("%s: replay sums up %+v, error %v", tc.moves, sum, err2)
		}
	}
}

func mustContract(t *testing.T, id string) corruption.Contract {
	t.Helper()
	c, err := corruption.ParseContract(id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
