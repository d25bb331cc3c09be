package kingdoms

import (
	"embed"
	"fmt"
	"strconv"
	"strings"
)

// The game's components, read from the data files under data/ (one file per kind, embedded).
// Every value in them is this project's own: the rule sheet gives the counts, not the cards.
// docs/KINGDOMS.md lists them all.

//go:embed data/*.txt
var dataFiles embed.FS

// Minion is one of the four kinds of minion, the game's currency.
type Minion uint8

const (
	Golem Minion = iota
	Goblin
	Devil
	Zombie
	NumMinions
	NoMinion Minion = 0xff // no minion: an optional choice not made
)

// FavorType is one of the five favor types.
type FavorType uint8

const (
	Freedom FavorType = iota
	Defense
	Magic
	Environment
	Industry
	NumFavorTypes
)

// Heart is a guilty-pleasure type (the sheet shows it as a heart).
type Heart uint8

const (
	Gold Heart = iota
	Feasts
	Revels
	Potions
	Gossip
	NumHearts
)

var (
	minionNames = [NumMinions]string{"golem", "goblin", "devil", "zombie"}
	typeNames   = [NumFavorTypes]string{"freedom", "defense", "magic", "environment", "industry"}
	heartNames  = [NumHearts]string{"gold", "feasts", "revels", "potions", "gossip"}
)

func (m Minion) String() string {
	if m < NumMinions {
		return minionNames[m]
	}
	if m == NoMinion {
		return "none"
	}
	return fmt.Sprintf("minion(%d)", uint8(m))
}

func (t FavorType) String() string {
	if t < NumFavorTypes {
		return typeNames[t]
	}
	return fmt.Sprintf("type(%d)", uint8(t))
}

func (h Heart) String() string {
	if h < NumHearts {
		return heartNames[h]
	}
	return fmt.Sprintf("heart(%d)", uint8(h))
}

// MarshalText writes the names String gives, for JSON.
func (m Minion) MarshalText() ([]byte, error)    { return []byte(m.String()), nil }
func (t FavorType) MarshalText() ([]byte, error) { return []byte(t.String()), nil }
func (h Heart) MarshalText() ([]byte, error)     { return []byte(h.String()), nil }

// ParseMinion, ParseFavorType and ParseHeart read the names String gives.
func ParseMinion(s string) (Minion, error) { return parseName[Minion]("minion", s, minionNames[:]) }
func ParseFavorType(s string) (FavorType, error) {
	return parseName[FavorType]("favor type", s, typeNames[:])
}
func ParseHeart(s string) (Heart, error) { return parseName[Heart]("heart", s, heartNames[:]) }

func parseName[T ~uint8](what, s string, names []string) (T, error) {
	for i, n := range names {
		if n == s {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", what, s, strings.Join(names, ", "))
}

// Favor is one of the 50 favors: a type and the two minions it shows.
type Favor struct {
	ID      string // "magic-4"
	Type    FavorType
	Minions [2]Minion
}

// Pleasure is one of the 25 guilty pleasures: a heart and a favor type.
type Pleasure struct {
	ID    string // "gold/magic"
	Heart Heart
	Type  FavorType
}

// Leader is a senate or kingdom leader: its cost in minions and its heart; a kingdom leader also
// prefers a favor type.
type Leader struct {
	ID, Name string
	Kingdom  int // its kingdom (index into Kingdoms), or -1 for a senator
	Senate   int // its senate board (index into Senates), or -1 for a kingdom leader
	Cost     [2]Minion
	Heart    Heart
	Prefers  FavorType // a kingdom leader's preference (senators have none)
}

// Senate is a senate board of five senators.
type Senate struct {
	ID, Name string
	Leaders  []int
}

// Kingdom is a kingdom board: four leaders, a monarch with a favor type preference, two bills.
type Kingdom struct {
	ID, Name string
	Monarch  string
	Prefers  FavorType
	Leaders  []int
}

// Corporation is a player's corporation: its mat's four minions, left to right, and its six
// chaos cards.
type Corporation struct {
	ID, Name string
	Mat      [4]Minion
	Chaos    []int
}

// tables are the components, as read from data/.
type tables struct {
	favors       []Favor
	pleasures    []Pleasure
	shareholders []FavorType
	leaders      []Leader
	senates      []Senate
	kingdoms     []Kingdom
	corporations []Corporation
	chaosCards   []ChaosCard
}

// The components, as read from data/. They are the game's rules: read them, never change them.
var (
	favors       []Favor
	pleasures    []Pleasure
	shareholders []FavorType
	leaders      []Leader
	senates      []Senate
	kingdoms     []Kingdom
	corporations []Corporation
	chaosCards   []ChaosCard
)

// Favors, Pleasures, Shareholders, Leaders, Senates, Kingdoms, Corporations and ChaosCards list
// the components, by id (an index). Each call returns a fresh copy.
func Favors() []Favor             { return append([]Favor(nil), favors...) }
func Pleasures() []Pleasure       { return append([]Pleasure(nil), pleasures...) }
func Shareholders() []FavorType   { return append([]FavorType(nil), shareholders...) }
func Leaders() []Leader           { return append([]Leader(nil), leaders...) }
func Senates() []Senate           { return append([]Senate(nil), senates...) }
func Kingdoms() []Kingdom         { return append([]Kingdom(nil), kingdoms...) }
func Corporations() []Corporation { return append([]Corporation(nil), corporations...) }
func ChaosCards() []ChaosCard     { return append([]ChaosCard(nil), chaosCards...) }

// Counts the rule sheet gives.
const (
	NumFavors         = 50
	NumPleasures      = 25
	NumShareholders   = 10
	NumCorporations   = 6
	ChaosPerCorp      = 6
	NumChaos          = NumCorporations * ChaosPerCorp
	SenatorsPerBoard  = 5
	LeadersPerKingdom = 4
	NumLeaders        = 22 // ten senators and twelve kingdom leaders
	BillsPerKingdom   = 2
)

func init() {
	d, err := loadAll()
	if err != nil {
		panic("kingdoms: " + err.Error()) // the embedded data is part of the program
	}
	favors, pleasures, shareholders, leaders = d.favors, d.pleasures, d.shareholders, d.leaders
	senates, kingdoms, corporations, chaosCards = d.senates, d.kingdoms, d.corporations, d.chaosCards
}

func loadAll() (*tables, error) {
	d := &tables{}
	for _, f := range []struct {
		name  string
		parse func(lines [][]string) error
	}{
		{"favors.txt", d.parseFavors}, {"pleasures.txt", d.parsePleasures}, {"shareholders.txt", d.parseShareholders},
		{"boards.txt", d.parseBoards}, {"corporations.txt", d.parseCorporations}, {"chaos.txt", d.parseChaos},
	} {
		b, err := dataFiles.ReadFile("data/" + f.name)
		if err != nil {
			return nil, err
		}
		lines, err := tokenize(string(b))
		if err == nil {
			err = f.parse(lines)
		}
		if err != nil {
			return nil, fmt.Errorf("data/%s: %w", f.name, err)
		}
	}
	return d, nil
}

// tokenize splits a data file into lines of fields: blank lines and # comments are skipped,
// fields are separated by spaces, and a "quoted field" may hold spaces. Each line's first
// element is its line number.
func tokenize(s string) ([][]string, error) {
	var out [][]string
	for i, line := range strings.Split(s, "\n") {
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		fields := []string{strconv.Itoa(i + 1)}
		for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
			if line[0] == '"' {
				end := strings.IndexByte(line[1:], '"')
				if end < 0 {
					return nil, fmt.Errorf("line %d: a quote is not closed", i+1)
				}
				fields, line = append(fields, line[1:end+1]), line[end+2:]
				continue
			}
			end := strings.IndexAny(line, " \t")
			if end < 0 {
				end = len(line)
			}
			fields, line = append(fields, line[:end]), line[end:]
		}
		if len(fields) > 1 {
			out = append(out, fields)
		}
	}
	return out, nil
}

// fields checks that a line has n fields after its number.
func fields(l []string, n int, what string) ([]string, error) {
	if len(l)-1 != n {
		return nil, fmt.Errorf("line %s: %d fields, want %d (%s)", l[0], len(l)-1, n, what)
	}
	return l[1:], nil
}

func (d *tables) parseFavors(lines [][]string) error {
	var count [NumFavorTypes]int
	for _, l := range lines {
		f, err := fields(l, 3, "type minion minion")
		if err != nil {
			return err
		}
		t, err1 := ParseFavorType(f[0])
		a, err2 := ParseMinion(f[1])
		b, err3 := ParseMinion(f[2])
		if err := firstErr(err1, err2, err3); err != nil {
			return fmt.Errorf("line %s: %w", l[0], err)
		}
		count[t]++
		d.favors = append(d.favors, Favor{ID: fmt.Sprintf("%s-%d", t, count[t]), Type: t, Minions: [2]Minion{a, b}})
	}
	for t, c := range count {
		if c != NumFavors/int(NumFavorTypes) {
			return fmt.Errorf("%d favors of type %s, want %d", c, FavorType(t), NumFavors/int(NumFavorTypes))
		}
	}
	return nil
}

func (d *tables) parsePleasures(lines [][]string) error {
	for _, l := range lines {
		f, err := fields(l, 2, "heart type")
		if err != nil {
			return err
		}
		h, err1 := ParseHeart(f[0])
		t, err2 := ParseFavorType(f[1])
		if err := firstErr(err1, err2); err != nil {
			return fmt.Errorf("line %s: %w", l[0], err)
		}
		d.pleasures = append(d.pleasures, Pleasure{ID: h.String() + "/" + t.String(), Heart: h, Type: t})
	}
	if len(d.pleasures) != NumPleasures {
		return fmt.Errorf("%d guilty pleasures, want %d", len(d.pleasures), NumPleasures)
	}
	return unique(len(d.pleasures), func(i int) string { return d.pleasures[i].ID })
}

func (d *tables) parseShareholders(lines [][]string) error {
	for _, l := range lines {
		f, err := fields(l, 1, "type")
		if err != nil {
			return err
		}
		t, err := ParseFavorType(f[0])
		if err != nil {
			return fmt.Errorf("line %s: %w", l[0], err)
		}
		d.shareholders = append(d.shareholders, t)
	}
	if len(d.shareholders) != NumShareholders {
		return fmt.Errorf("%d shareholder cards, want %d", len(d.shareholders), NumShareholders)
	}
	return nil
}

func (d *tables) parseCorporations(lines [][]string) error {
	for _, l := range lines {
		f, err := fields(l, 6, "id name minion minion minion minion")
		if err != nil {
			return err
		}
		c := Corporation{ID: f[0], Name: f[1]}
		for i := range c.Mat {
			if c.Mat[i], err = ParseMinion(f[2+i]); err != nil {
				return fmt.Errorf("line %s: %w", l[0], err)
			}
		}
		d.corporations = append(d.corporations, c)
	}
	if len(d.corporations) != NumCorporations {
		return fmt.Errorf("%d corporations, want %d", len(d.corporations), NumCorporations)
	}
	return unique(len(d.corporations), func(i int) string { return d.corporations[i].ID })
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// unique checks that n ids are distinct.
func unique(n int, id func(int) string) error {
	seen := map[string]bool{}
	for i := range n {
		if seen[id(i)] {
			return fmt.Errorf("id %q is used twice", id(i))
		}
		seen[id(i)] = true
	}
	return nil
}
