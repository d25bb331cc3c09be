package ui

// State is what GET /api/state answers and what /api/events streams: everything the page
// shows. The shell fills what every game has; the board fills Game and adds its fields to
// Seats, Decision, Table and Lobby (built from the person's seat's view only). A board's
// fields must not reuse the names of the shell's.
type State struct {
	Version int    `json:"version"`
	Mode    string `json:"mode"` // name (the person's, asked first), lobby, waiting (for seats), setup (keys, shuffle), game, over
	// NameDefault fills the name screen's field; Quit: the page offers to quit the program.
	NameDefault string        `json:"name_default,omitempty"`
	Quit        bool          `json:"quit,omitempty"`
	Lang        string        `json:"lang"` // the language of the state's words (one of Languages)
	Me          Me            `json:"me"`
	Network     *NetworkState `json:"network,omitempty"` // in the lobby and while the table forms
	Lobby       *LobbyState   `json:"lobby,omitempty"`
	Private     *PrivateState `json:"private,omitempty"` // the private table the node created, while it forms
	Phones      *Phones       `json:"phones,omitempty"`  // where phones join (--phones), in the lobby and while the table forms
	Table       *TableState   `json:"table,omitempty"`
	Seats       []SeatState   `json:"seats,omitempty"`
	Game        any           `json:"game,omitempty"` // the board's
	Decision    *Decision     `json:"decision,omitempty"`
	Clock       *Clock        `json:"clock,omitempty"`
	Alerts      []Alert       `json:"alerts,omitempty"`
	Result      *ResultState  `json:"result,omitempty"`
	Pause       *PauseState   `json:"pause,omitempty"` // while the game is under way, when the page can pause it
	// TableGen counts the person's tables: one more at each rematch, when the page starts
	// again; Rematch is the next table's name when the results offer a rematch.
	TableGen int    `json:"table_gen"`
	Rematch  string `json:"rematch,omitempty"`
	// Without are the players the rematch is played without (the cheaters of this table), by
	// name.
	Without  []string  `json:"without,omitempty"`
	LogStart int       `json:"log_start"` // the index of Log[0] in the whole log
	Log      []LogLine `json:"log"`
}

// Me is the person.
type Me struct {
	Name string `json:"name"`
	Seat int    `json:"seat"` // -1 before the table forms
}

// TableState is the table's settings and progress.
type TableState struct {
	Name    string   `json:"name"`
	GameID  string   `json:"game"` // the game's id
	Players int      `json:"players"`
	Entries int      `json:"entries"`
	Members []string `json:"members,omitempty"` // names heard while the table forms
	Full    int      `json:"full,omitempty"`    // tables of this name, every seat taken, heard while it forms
	Bots    int      `json:"bots"`              // local bots started for it
	Private bool     `json:"private,omitempty"` // a private table (created with --private, or joined by its code)
	// Escrow: the table escrows its seats' secrets (known once it forms; before, what the
	// person's node asks for), and Promise says what that means to a player (depart.go).
	Escrow   bool   `json:"escrow"`
	Promise  string `json:"promise"`
	Settings any    `json:"-"` // the board's ShowSettings
}

// MarshalJSON writes the table with its settings' fields.
func (t TableState) MarshalJSON() ([]byte, error) {
	type plain TableState
	return joinFields(plain(t), t.Settings)
}

// SeatState is one player as everyone sees them.
type SeatState struct {
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Me     bool   `json:"me"`
	Winner bool   `json:"winner"`
	Due    bool   `json:"due"` // the table waits for this seat
	// Open: the player left and the table plays the seat with a bot (depart.go); Cheated: the
	// player was caught cheating, and the table plays on without them the same way
	// (protocol/convict.go).
	Open    bool `json:"open,omitempty"`
	Cheated bool `json:"cheated,omitempty"`
	Board   any  `json:"-"` // the board's fields for this seat (score...)
}

// MarshalJSON writes the seat with the board's fields.
func (s SeatState) MarshalJSON() ([]byte, error) {
	type plain SeatState
	return joinFields(plain(s), s.Board)
}

// Decision is the person's decision due; the board adds what it is and every legal choice.
type Decision struct {
	ID      int   `json:"id"`
	SinceMS int64 `json:"since_ms"`
	Board   any   `json:"-"`
}

// MarshalJSON writes the decision with the board's fields.
func (d Decision) MarshalJSON() ([]byte, error) {
	type plain Decision
	return joinFields(plain(d), d.Board)
}

// NetworkState is how the person's node finds other players: by mDNS on the LAN or not, how
// many peers it is connected to, its own addresses (for another player's --peer), and whether
// the page may ask it to dial an address.
type NetworkState struct {
	MDNS  bool       `json:"mdns"`
	Peers int        `json:"peers"`
	Addrs []string   `json:"addrs"`
	Dial  bool       `json:"dial"`
	Conns []PeerConn `json:"conns"` // each peer connected now, direct or relayed
}

// Clock says whom the table waits for and since when. When the table keeps a time bank (a
// protocol.Status with Bank and Allowance), AllowanceMS is each turn's own time and BankMS
// what is left of the due seat's bank when the turn began.
type Clock struct {
	Due         int    `json:"due"` // seat, -1 when nobody
	Name        string `json:"name"`
	SinceMS     int64  `json:"since_ms"` // unix milliseconds
	TimeoutMS   int64  `json:"timeout_ms"`
	NowMS       int64  `json:"now_ms"`
	AllowanceMS *int64 `json:"allowance_ms,omitempty"`
	BankMS      *int64 `json:"bank_ms,omitempty"`
	NoLimit     bool   `json:"no_limit,omitempty"` // the decision due has no time limit
}

// Alert is a message the page shows in a banner.
type Alert struct {
	Level string `json:"level"` // info, warn, error
	Text  string `json:"text"`
}

// ResultState is how the table ended. Status is finished (every seat signed off the end of
// the game), abandoned (a player stopped answering and the table named them gone), halted (a
// player caught cheating, or the game broke), stopped (the person's node stopped before the
// end) or paused (every player agreed to pause: Resume is the command that resumes it, "" when
// it cannot); Headline says it in plain words.
type ResultState struct {
	Status   string `json:"status"`
	Headline string `json:"headline"`
	Finished bool   `json:"finished"`
	Scores   []int  `json:"scores"`
	Winners  []int  `json:"winners"`
	Digest   string `json:"digest"`
	Entries  int    `json:"entries"`
	Verdict  string `json:"verdict,omitempty"`
	Audit    string `json:"audit"`
	Valid    bool   `json:"valid"`
	Error    string `json:"error,omitempty"`
	Resume   string `json:"resume,omitempty"`
}
