package kingdoms

import "fmt"

// The boards at a table, and the other counts that depend on the number of players, as the
// rule sheet's tables give them.

// Table sizes.
const (
	MinPlayers = 2
	MaxPlayers = 6
)

// SenateBoards is how many senate boards a table of n players uses: 1 for two or three, 2 for
// four to six.
func SenateBoards(n int) int {
	if n <= 3 {
		return 1
	}
	return 2
}

// KingdomBoards is how many kingdom boards a table of n players uses: 1, 2, 2, 3, 3 for two to
// six players.
func KingdomBoards(n int) int { return [...]int{0, 0, 1, 2, 2, 3, 3}[n] }

// FavorsPerType is how many favors of each type the favor deck takes: 7 for two or three
// players, 8 for four, 9 for five, all 10 for six.
func FavorsPerType(n int) int { return [...]int{0, 0, 7, 7, 8, 9, 10}[n] }

// StartingMinions is how many minions the player at place pos (0: first) in turn order takes:
// 2, 2, 3, 3, 4, 4.
func StartingMinions(pos int) int { return 2 + pos/2 }

// ShareholderCards is how many shareholder cards each player draws: two in a 2-player game.
func ShareholderCards(n int) int {
	if n == 2 {
		return 2
	}
	return 1
}

// ChaosDrawn is how many chaos cards each player draws (one is discarded): four in a 2-player
// game, else three. A player may play all the others.
func ChaosDrawn(n int) int {
	if n == 2 {
		return 4
	}
	return 3
}

// NumBills is the number of bill slots on all kingdom boards; bill b is slot b%2 of kingdom
// b/2, and bills are voted left to right in this order.
const NumBills = 6

// BillKingdom is the kingdom of bill b.
func BillKingdom(b int) int { return b / BillsPerKingdom }

// BillID is a bill's id: its kingdom's id and 1 (left) or 2 (right): "grimhold-1".
func BillID(b int) string {
	if b < 0 || b >= NumBills {
		return fmt.Sprintf("bill(%d)", b)
	}
	return fmt.Sprintf("%s-%d", kingdoms[b/2].ID, b%2+1)
}

// BillName is a bill in words: "Grimhold's left bill".
func BillName(b int) string {
	if b < 0 || b >= NumBills {
		return BillID(b)
	}
	return fmt.Sprintf("%s's %s bill", kingdoms[b/2].Name, [2]string{"left", "right"}[b%2])
}

// ParseBill reads a bill id.
func ParseBill(s string) (int, error) {
	for b := range NumBills {
		if BillID(b) == s {
			return b, nil
		}
	}
	return 0, fmt.Errorf("unknown bill %q (want a kingdom's id and 1 or 2: grimhold-1)", s)
}

// InPlay reports whether leader l is on a board of a table of n players.
func InPlay(l, n int) bool {
	if l < 0 || l >= len(leaders) {
		return false
	}
	if s := leaders[l].Senate; s >= 0 {
		return s < SenateBoards(n)
	}
	return leaders[l].Kingdom < KingdomBoards(n)
}

// BillInPlay reports whether bill b is on a board of a table of n players.
func BillInPlay(b, n int) bool { return b >= 0 && b < BillsPerKingdom*KingdomBoards(n) }

// Voters is the number of eligible voters on any bill at a table of n players: 10 or 15.
func Voters(n int) int { return SenatorsPerBoard*SenateBoards(n) + LeadersPerKingdom + 1 }

// lookup finds an id among n.
func lookup(what, s string, n int, id func(int) string) (int, error) {
	for i := range n {
		if id(i) == s {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q", what, s)
}

// ShareholderID is shareholder card c's id: its type and its number within the type, "magic-2".
func ShareholderID(c int) string {
	if c < 0 || c >= len(shareholders) {
		return fmt.Sprintf("shareholder(%d)", c)
	}
	n := 0
	for _, t := range shareholders[:c+1] {
		if t == shareholders[c] {
			n++
		}
	}
	return fmt.Sprintf("%s-%d", shareholders[c], n)
}

// ParseFavor, ParsePleasure, ParseLeader, ParseCorporation, ParseShareholder and ParseChaos read
// component ids.
func ParseFavor(s string) (int, error) {
	return lookup("favor", s, len(favors), func(i int) string { return favors[i].ID })
}
func ParsePleasure(s string) (int, error) {
	return lookup("guilty pleasure", s, len(pleasures), func(i int) string { return pleasures[i].ID })
}
func ParseLeader(s string) (int, error) {
	return lookup("leader", s, len(leaders), func(i int) string { return leaders[i].ID })
}
func ParseCorporation(s string) (int, error) {
	return lookup("corporation", s, len(corporations), func(i int) string { return corporations[i].ID })
}
func ParseShareholder(s string) (int, error) {
	return lookup("shareholder card", s, len(shareholders), ShareholderID)
}
func ParseChaos(s string) (int, error) {
	return lookup("chaos card", s, len(chaosCards), func(i int) string { return chaosCards[i].ID })
}

func (d *tables) parseBoards(lines [][]string) error {
	for _, l := range lines {
		var err error
		switch l[1] {
		case "senate":
			var f []string
			if f, err = fields(l, 3, "senate id name"); err == nil {
				d.senates = append(d.senates, Senate{ID: f[1], Name: f[2]})
			}
		case "kingdom":
			var f []string
			if f, err = fields(l, 5, "kingdom id name monarch preference"); err == nil {
				k := Kingdom{ID: f[1], Name: f[2], Monarch: f[3]}
				k.Prefers, err = ParseFavorType(f[4])
				d.kingdoms = append(d.kingdoms, k)
			}
		case "senator", "leader":
			err = d.parseLeader(l)
		default:
			err = fmt.Errorf("unknown record %q (want senate, senator, kingdom or leader)", l[1])
		}
		if err != nil {
			return fmt.Errorf("line %s: %w", l[0], err)
		}
	}
	if len(d.senates) != 2 || len(d.kingdoms) != 3 {
		return fmt.Errorf("%d senate and %d kingdom boards, want 2 and 3", len(d.senates), len(d.kingdoms))
	}
	for _, s := range d.senates {
		if len(s.Leaders) != SenatorsPerBoard {
			return fmt.Errorf("%s has %d senators, want %d", s.ID, len(s.Leaders), SenatorsPerBoard)
		}
	}
	for _, k := range d.kingdoms {
		if len(k.Leaders) != LeadersPerKingdom {
			return fmt.Errorf("%s has %d leaders, want %d", k.ID, len(k.Leaders), LeadersPerKingdom)
		}
	}
	if len(d.leaders) != NumLeaders {
		return fmt.Errorf("%d leaders, want %d", len(d.leaders), NumLeaders)
	}
	return unique(len(d.leaders), func(i int) string { return d.leaders[i].ID })
}

func (d *tables) parseLeader(l []string) error {
	senator := l[1] == "senator"
	n, what := 6, "senator id name cost cost heart"
	if !senator {
		n, what = 7, "leader id name cost cost heart preference"
	}
	f, err := fields(l, n, what)
	if err != nil {
		return err
	}
	ld := Leader{ID: f[1], Name: f[2], Kingdom: -1, Senate: -1}
	a, err1 := ParseMinion(f[3])
	b, err2 := ParseMinion(f[4])
	h, err3 := ParseHeart(f[5])
	if err := firstErr(err1, err2, err3); err != nil {
		return err
	}
	ld.Cost, ld.Heart = [2]Minion{a, b}, h
	id := len(d.leaders)
	if senator {
		if len(d.senates) == 0 {
			return fmt.Errorf("a senator before any senate board")
		}
		ld.Senate = len(d.senates) - 1
		d.senates[ld.Senate].Leaders = append(d.senates[ld.Senate].Leaders, id)
	} else {
		if len(d.kingdoms) == 0 {
			return fmt.Errorf("a leader before any kingdom board")
		}
		if ld.Prefers, err = ParseFavorType(f[6]); err != nil {
			return err
		}
		ld.Kingdom = len(d.kingdoms) - 1
		d.kingdoms[ld.Kingdom].Leaders = append(d.kingdoms[ld.Kingdom].Leaders, id)
	}
	d.leaders = append(d.leaders, ld)
	return nil
}
