package corruptia

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
)

// The cards: 90 bills (data/bills.csv) and the five parties' blackmail cards
// (data/parties.csv), both embedded and checked when the package starts.

// Department is one of the five departments a bill belongs to.
type Department uint8

const (
	Culture Department = iota
	Defence
	Economy
	Education
	Environment
	NumDepartments = 5
)

var deptNames = [NumDepartments]string{"culture", "defence", "economy", "education", "environment"}
var deptShort = [NumDepartments]string{"cul", "def", "eco", "edu", "env"}

func (d Department) String() string {
	if d < NumDepartments {
		return deptNames[d]
	}
	return fmt.Sprintf("department(%d)", uint8(d))
}

// ParseDepartment reads a department's name: culture, defence, economy, education or
// environment.
func ParseDepartment(s string) (Department, error) {
	for d, name := range deptNames {
		if s == name {
			return Department(d), nil
		}
	}
	return 0, fmt.Errorf("unknown department %q (want culture, defence, economy, education or environment)", s)
}

// Bill is one of the 90 bill cards, by id 0..89: department d holds bills 18d..18d+17.
type Bill uint8

// Unknown stands for a bill this node has not seen.
const Unknown Bill = 0xff

// Deck sizes.
const (
	NumBills          = 90
	BillsPerDept      = NumBills / NumDepartments
	Incomes           = 3 // income expectations are $1, $2 and $3
	WorkersPerBill    = 3 // vacancies in a bill's budget
	OfficialsPerStart = 6 // officials on each starting bill
)

type billData struct {
	dept   Department
	income int
	budget [WorkersPerBill]int // ascending
	title  string
}

var bills [NumBills]billData

// Valid reports whether b is one of the 90 bills.
func (b Bill) Valid() bool { return b < NumBills }

// Department is the bill's department.
func (b Bill) Department() Department { return bills[b].dept }

// Income is the income expectation of the six officials on the bill when it opens the
// government program (1, 2 or 3): it counts for a starting bill only.
func (b Bill) Income() int { return bills[b].income }

// Budget is the income expectation of each of the bill's three vacancies, ascending.
func (b Bill) Budget() [WorkersPerBill]int { return bills[b].budget }

// Title is the bill's name: "Carbon Tax".
func (b Bill) Title() string { return bills[b].title }

// String is the bill's id: "env12", or "unknown".
func (b Bill) String() string {
	switch {
	case b == Unknown:
		return "unknown"
	case b >= NumBills:
		return fmt.Sprintf("bill(%d)", uint8(b))
	}
	return fmt.Sprintf("%s%02d", deptShort[b/BillsPerDept], int(b)%BillsPerDept+1)
}

// ParseBill reads a bill's id: "cul01" to "env18".
func ParseBill(s string) (Bill, error) {
	if len(s) == 5 {
		for d, p := range deptShort {
			k, err := strconv.Atoi(s[3:])
			if s[:3] == p && err == nil && k >= 1 && k <= BillsPerDept && s[3] >= '0' && s[3] <= '9' {
				return Bill(d*BillsPerDept + k - 1), nil
			}
		}
	}
	return 0, fmt.Errorf("unknown bill %q (want cul01 to cul18, def.., eco.., edu.. or env..)", s)
}

// Party is a political party: seat s plays party s.
type Party struct {
	Name      string
	Blackmail [MaxPlayers - 1]string // its blackmail cards, dealt to its opponents clockwise
}

var parties [MaxPlayers]Party

// PartyOf is the party of seat's senator.
func PartyOf(seat int) Party { return parties[seat] }

// BlackmailTitle names the blackmail card that holder holds on target at a table of players:
// target's party dealt its card k to its k-th opponent clockwise.
func BlackmailTitle(holder, target, players int) string {
	k := ((holder-target)%players + players) % players
	return parties[target].Blackmail[k-1]
}

//go:embed data/bills.csv
var billsCSV []byte

//go:embed data/parties.csv
var partiesCSV []byte

func init() {
	if err := loadBills(billsCSV); err != nil {
		panic("corruptia: data/bills.csv: " + err.Error())
	}
	if err := loadParties(partiesCSV); err != nil {
		panic("corruptia: data/parties.csv: " + err.Error())
	}
}

func readCSV(data []byte, header string) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	rows, err := r.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 || strings.Join(rows[0], ",") != header {
		return nil, fmt.Errorf("the header is not %q", header)
	}
	return rows[1:], nil
}

// loadBills reads the bills and holds them to the design: 18 a department in id order, six of
// each income expectation, three vacancies of $1 to $3 each.
func loadBills(data []byte) error {
	rows, err := readCSV(data, "id,department,income,budget,title")
	if err != nil {
		return err
	}
	if len(rows) != NumBills {
		return fmt.Errorf("%d bills, want %d", len(rows), NumBills)
	}
	var perIncome [NumDepartments][Incomes + 1]int
	for i, row := range rows {
		b, err := ParseBill(row[0])
		if err != nil || int(b) != i {
			return fmt.Errorf("line %d: id %q out of order", i+1, row[0])
		}
		d, err := ParseDepartment(row[1])
		if err != nil || d != Department(i/BillsPerDept) {
			return fmt.Errorf("%s: department %q", row[0], row[1])
		}
		inc, err := strconv.Atoi(row[2])
		if err != nil || inc < 1 || inc > Incomes {
			return fmt.Errorf("%s: income %q is not 1 to %d", row[0], row[2], Incomes)
		}
		perIncome[d][inc]++
		parts := strings.Split(row[3], "+")
		if len(parts) != WorkersPerBill {
			return fmt.Errorf("%s: budget %q has not %d vacancies", row[0], row[3], WorkersPerBill)
		}
		bd := billData{dept: d, income: inc, title: row[4]}
		for k, p := range parts {
			v, err := strconv.Atoi(p)
			if err != nil || v < 1 || v > Incomes || (k > 0 && v < bd.budget[k-1]) {
				return fmt.Errorf("%s: budget %q is not ascending incomes 1 to %d", row[0], row[3], Incomes)
			}
			bd.budget[k] = v
		}
		if bd.title == "" {
			return fmt.Errorf("%s: no title", row[0])
		}
		bills[i] = bd
	}
	for d := range perIncome {
		for inc := 1; inc <= Incomes; inc++ {
			if perIncome[d][inc] != BillsPerDept/Incomes {
				return fmt.Errorf("%s has %d bills of income %d, want %d", Department(d), perIncome[d][inc], inc, BillsPerDept/Incomes)
			}
		}
	}
	return nil
}

func loadParties(data []byte) error {
	rows, err := readCSV(data, "seat,party,card1,card2,card3,card4")
	if err != nil {
		return err
	}
	if len(rows) != MaxPlayers {
		return fmt.Errorf("%d parties, want %d", len(rows), MaxPlayers)
	}
	for i, row := range rows {
		if row[0] != strconv.Itoa(i) {
			return fmt.Errorf("line %d: seat %q out of order", i+1, row[0])
		}
		p := Party{Name: row[1]}
		copy(p.Blackmail[:], row[2:])
		for _, s := range row[1:] {
			if s == "" {
				return fmt.Errorf("seat %d: an empty name", i)
			}
		}
		parties[i] = p
	}
	return nil
}
