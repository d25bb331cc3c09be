package protocol

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"sort"
	"strings"
	"time"

	"slices"
)

// Formation. Before its genesis, a node that wants a table (name, game, configuration and
// number of players) says hello every tick; it lists the nodes it hears that want the same
// table and are not seated elsewhere. When it hears enough of them, the one with the lowest key
// among the lowest keys writes the genesis with them, and every node it seats adopts it. Several
// tables may share a name: a node learns every genesis of its name from the table's channel, and
// whoever sits at one is no longer a candidate for the next, so that eight nodes named alike for
// four seats become two tables.
//
// Two geneses can seat one node when nodes saw different candidates. The rule that settles it:
// a node sits at the genesis with the lowest id that seats it; a table whose keys are not all in
// yet dissolves, quietly, as soon as one of its players is known to sit at a lower table, or at a
// table whose game has started. Its nodes then form again; nobody is blamed for a table that
// never started. A node that hears nobody for FormTimeout gives up and says why.
//
// Nodes see the other tables at different moments, so one node of a table may dissolve it while
// another, which heard of nothing lower, stays; or while another already holds every key. So a
// node that dissolves a table says so, signed (a left notice, said again every leftEvery until it sits
// at a started table), and the table is dead: it can never start, it seats nobody, and every node of
// it that has not yet seen an entry past the keys dissolves it too, even with every key in hand.
// And the seat that writes the first entry past the keys waits until every seat has announced
// every key (or a quarter of the table's timeout): a node that holds every key no longer leaves,
// so a table starts only once all its players are bound to it. Without these, a node left alone
// at a table the others had left waited there for its timeout, and its candidates for want of it.

// former is the node's formation state.
type former struct {
	members   map[string]*hello    // candidates, by identity key: they want our table
	heardAt   map[string]time.Time // when each candidate last said hello
	geneses   map[[32]byte]*Genesis
	started   map[[32]byte]bool // tables of our name whose keys are all in (seen by their entries)
	warned    map[string]bool   // what the node has already said
	genesisAt time.Time         // when the node last republished the genesis for a latecomer
	// strangersAt is when the node last showed its table to a node that sits nowhere.
	strangersAt time.Time
	waitSaid    string // the last word on why it waits
	// genesisEntries keeps the genesis entries heard, to adopt one if this node's table
	// dissolves (at most 64).
	genesisEntries map[[32]byte]*Entry
	formingSince   time.Time // when the node began to wait for a table
	// dead are the tables of our name that one of their players left before their game started
	// (its signed left notice, or this node's own leaving): they never start and seat nobody.
	dead map[[32]byte]bool
	// leftWords are this node's left notices, the latest first (at most maxLeftWords), said
	// again every leftEvery until its table ends: for the tables it left, and, once its own table has
	// started, for every other genesis that seats it (its creator missed this node's table).
	leftWords  []*left
	leftSaidAt time.Time            // when the node last said its left notices again
	shownAt    map[string]time.Time // when a node that sits nowhere was last shown this node's table
}

// maxLeftWords bounds the left notices a node keeps saying.
const maxLeftWords = 8

// beginForming starts the wait for a table to form (FormTimeout) from now.
func (f *former) beginForming(now time.Time) { f.formingSince = now }

// firstTime reports whether the node says what key names for the first time, and marks it said.
func (f *former) firstTime(key string) bool {
	if f.warned[key] {
		return false
	}
	f.warned[key] = true
	return true
}

func (f *former) init() {
	f.members = map[string]*hello{}
	f.heardAt = map[string]time.Time{}
	f.geneses = map[[32]byte]*Genesis{}
	f.started = map[[32]byte]bool{}
	f.warned = map[string]bool{}
	f.genesisEntries = map[[32]byte]*Entry{}
	f.dead = map[[32]byte]bool{}
	f.shownAt = map[string]time.Time{}
}

// myHello is this node's hello.
func (n *Node) myHello() *hello {
	h := &hello{version: entryVersion, table: n.cfg.Table, game: n.cfg.Game, config: n.cfg.Config, players: n.cfg.Players,
		name: n.cfg.Name, key: n.self.Public()}
	h.sig = ed25519.Sign(n.cfg.Identity, h.unsigned())
	return h
}

// hello asks for a seat, until a genesis seats the node.
func (n *Node) hello(ctx context.Context) {
	if n.table != nil {
		return
	}
	h := n.myHello()
	n.publish(ctx, h.marshal())
	if n.cfg.Lobby != nil {
		if err := n.cfg.Lobby.Publish(ctx, h.marshal()); err != nil && ctx.Err() == nil {
			n.cfg.Logf("lobby: %v", err)
		}
	}
	n.hear(ctx, h, "")
}

// hear takes note of a node that wants a seat.
func (n *Node) hear(ctx context.Context, h *hello, from string) {
	if h.table != n.cfg.Table {
		return
	}
	if t := n.table; t != nil {
		n.showTable(ctx, t, h, from)
		return
	}
	if p := n.cfg.Private; p != nil && !p.may(h.key) {
		if n.firstTime("private " + string(h.key)) {
			n.cfg.Logf("a node that did not pass the join code says hello at private table %q: it will not sit", h.table)
		}
		return
	}
	if h.version != entryVersion {
		if n.firstTime("version " + string(h.key)) {
			n.cfg.Notef("%q also wants table %q, but runs %s release of corruption (protocol %d; this one is %d): it cannot sit with us until one of you runs the other's release",
				h.name, h.table, olderNewer(h.version), h.version, entryVersion)
		}
		return
	}
	if n.excluded(h.key) {
		if n.firstTime("excluded " + string(h.key)) {
			n.cfg.Notef("%q also wants table %q, but this table is played without them (caught cheating at the last one): it will not sit with us", h.name, h.table)
		}
		return
	}
	if !h.sameSettings(n.myHello()) {
		if n.firstTime(string(h.key)) {
			n.cfg.Notef("%q also wants table %q, but with %s: it will not sit with us", h.name, h.table, n.settingsDiff(h))
		}
		return
	}
	n.members[string(h.key)] = h
	n.heardAt[string(h.key)] = n.clock.Now()
	n.form(ctx)
}

// showTable answers a hello heard at a table: a player of the table that missed the genesis
// gets it again (once a tick at most); a node that wants a table of this name and settings
// but sits at none, which may not know this one (it came late, or missed the genesis), is
// shown the genesis and, once the game has started, the last entry, so that it counts this
// table full and its players taken. A stranger's hellos are cheap to make (a fresh key each),
// and every node of the table answers them on the table's channel: so a node shows its table
// to one node at most once every strangerEvery, and to strangers at most once every
// strangersEvery in all, however many keys say hello (an outsider's flood of hellos from fresh
// keys made every node publish twice a tick, and the game crawl, before this bound).
func (n *Node) showTable(ctx context.Context, t *Table, h *hello, from string) {
	now := n.clock.Now()
	if from == "" {
		return
	}
	if t.g.SeatOf(h.key) >= 0 {
		if t.stage == stageKeys && now.Sub(n.genesisAt) > n.cfg.Tick {
			n.genesisAt = now
			n.publish(ctx, append([]byte{msgEntry}, t.entries[0].Marshal()...))
		}
		return
	}
	if now.Sub(n.strangersAt) < strangersEvery || !h.sameSettings(n.myHello()) {
		return
	}
	k := string(h.key)
	if last, seen := n.shownAt[k]; seen && now.Sub(last) < strangerEvery {
		return
	}
	if len(n.shownAt) >= maxStrangers {
		for key, at := range n.shownAt {
			if now.Sub(at) >= strangerEvery {
				delete(n.shownAt, key) // shown long enough ago to be shown again anyway
			}
		}
		if len(n.shownAt) >= maxStrangers {
			return
		}
	}
	n.shownAt[k] = now
	n.strangersAt = now
	n.publish(ctx, append([]byte{msgEntry}, t.entries[0].Marshal()...))
	if t.Started() {
		n.publish(ctx, append([]byte{msgEntry}, t.entries[len(t.entries)-1].Marshal()...))
	}
}

// How often a table shows itself to one node that wants a table of its name, to how many
// nodes it keeps that note, and how often to any stranger at all.
const (
	strangerEvery  = 5 * time.Second
	maxStrangers   = 64
	strangersEvery = time.Second
)

// candidates are the nodes heard lately that want this table and sit at no table yet, by key.
func (n *Node) candidates() []string {
	now := n.clock.Now()
	var keys []string
	for k := range n.members {
		if k != string(n.self.Public()) && now.Sub(n.heardAt[k]) > 8*n.cfg.Tick+time.Second {
			delete(n.members, k) // gone quiet: left, or sat down
			continue
		}
		if n.seatedElsewhere(ed25519.PublicKey(k), [32]byte{}) {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// form writes the genesis when this node has the lowest key of the first N candidates.
func (n *Node) form(ctx context.Context) {
	keys := n.candidates()
	if len(keys) < n.cfg.Players {
		return
	}
	keys = keys[:n.cfg.Players]
	if p := n.cfg.Private; p != nil {
		// At a private table the creator writes the genesis, sitting first, with the nodes it
		// admitted (hear lets no other node be a candidate there).
		if !p.Creating() {
			return
		}
		keys = privateRoster(n.candidates(), n.self.Public(), n.cfg.Players)
	} else if keys[0] != string(n.self.Public()) {
		return
	}
	g := &Genesis{Name: n.cfg.Table, Game: n.cfg.Game, Config: n.cfg.Config, Timeout: n.cfg.Timeout,
		Allowance: n.cfg.Allowance, Bank: n.cfg.Bank, Escrow: n.cfg.escrowOn()}
	for _, k := range keys {
		m := n.members[k]
		g.Roster = append(g.Roster, Member{Name: m.name, Key: m.key})
	}
	e, err := NewGenesis(n.cfg.Rand, n.cfg.Identity, g)
	if err != nil {
		n.cfg.Logf("cannot create the table: %v", err)
		return
	}
	n.adopt(ctx, e)
}

// excluded reports whether key is a player this node never sits with (NodeConfig.Exclude).
func (n *Node) excluded(key ed25519.PublicKey) bool {
	return slices.ContainsFunc(n.cfg.Exclude, func(k ed25519.PublicKey) bool { return k.Equal(key) })
}

// seatedElsewhere reports whether key sits at a known table of this name other than id (zero
// for any). The tables that seat their players are the live ones: every started table, then,
// from the lowest id up, every other table none of whose players sits at a live table already.
func (n *Node) seatedElsewhere(key ed25519.PublicKey, id [32]byte) bool {
	for _, gid := range n.liveTables() {
		if gid != id && n.geneses[gid].SeatOf(key) >= 0 {
			return true
		}
	}
	return false
}

// liveTables lists the ids of the tables of this name that seat their players (see
// seatedElsewhere).
func (f *former) liveTables() [][32]byte {
	var started, rest [][32]byte
	for gid := range f.geneses {
		if f.dead[gid] && !f.started[gid] {
			continue // a player left it before it started: it never will
		}
		if f.started[gid] {
			started = append(started, gid)
		} else {
			rest = append(rest, gid)
		}
	}
	sort.Slice(rest, func(i, j int) bool { return bytes.Compare(rest[i][:], rest[j][:]) < 0 })
	live := started
	taken := map[string]bool{}
	for _, gid := range started {
		for _, m := range f.geneses[gid].Roster {
			taken[string(m.Key)] = true
		}
	}
	for _, gid := range rest {
		free := true
		for _, m := range f.geneses[gid].Roster {
			free = free && !taken[string(m.Key)]
		}
		if !free {
			continue
		}
		live = append(live, gid)
		for _, m := range f.geneses[gid].Roster {
			taken[string(m.Key)] = true
		}
	}
	return live
}

// noteGenesis takes note of a genesis of this table's name: its players are no longer
// candidates, and a table of this node's that it makes impossible dissolves.
func (n *Node) noteGenesis(ctx context.Context, e *Entry) {
	if _, seen := n.geneses[e.Table]; seen {
		return
	}
	if e.version() != entryVersion {
		return // a table of another release: this node cannot sit at it, nor take its seats
	}
	g, err := ParseGenesis(e.Body)
	if err != nil || g.Name != n.cfg.Table || g.ID() != e.Table || !e.Verify(g.Roster[0].Key) {
		return
	}
	if p := n.cfg.Private; p != nil && !p.Creator.Equal(g.Roster[0].Key) {
		return // at a private table only the creator's genesis counts
	}
	n.geneses[e.Table] = g
	if len(n.genesisEntries) < 64 {
		n.genesisEntries[e.Table] = e
	}
	n.checkTable(ctx)
	n.refuseOthers(ctx)
}

// noteStarted takes note of an entry of another table of this name: once that table's keys are
// all in, its players are taken for good.
func (n *Node) noteStarted(ctx context.Context, e *Entry) {
	g, ok := n.geneses[e.Table]
	if !ok || n.started[e.Table] || e.Seq <= uint64(len(g.Roster)) || e.Seat >= len(g.Roster) {
		return
	}
	n.started[e.Table] = true
	n.checkTable(ctx)
}

// checkTable dissolves this node's table while its game has not started (no entry past the
// keys yet), when it cannot start: while its keys are not all in, when one of its players sits at
// a lower table or at a started one; once they are, only when one of them sits at a started
// table (a node that holds every key no longer moves to a lower table, so neither does the
// table) or left it (a dead table). A node that was seated at a live table too moves there.
func (n *Node) checkTable(ctx context.Context) {
	t := n.table
	if t == nil || t.Started() {
		return
	}
	keysIn := t.stage != stageKeys
	if n.dead[t.id] {
		n.cfg.Notef("table %q (id %x) did not form: one of its players left it before its game started; forming again", t.g.Name, t.id[:4])
		n.dissolveAndMove(ctx)
		return
	}
	for _, m := range t.g.Roster {
		if keysIn && !n.seatedAtStarted(m.Key, t.id) || !keysIn && !n.seatedElsewhere(m.Key, t.id) {
			continue
		}
		who := "one of its players"
		if bytes.Equal(m.Key, n.self.Public()) {
			who = "this node"
		}
		n.cfg.Notef("table %q (id %x) did not form: %s sits at another table of that name; forming again", t.g.Name, t.id[:4], who)
		n.dissolveAndMove(ctx)
		return
	}
}

// seatedAtStarted reports whether key sits at a started table of this name other than id.
func (f *former) seatedAtStarted(key ed25519.PublicKey, id [32]byte) bool {
	for gid := range f.started {
		if gid != id && f.geneses[gid].SeatOf(key) >= 0 {
			return true
		}
	}
	return false
}

// dissolveAndMove dissolves this node's table and sits at the live table that seats it, if
// one does.
func (n *Node) dissolveAndMove(ctx context.Context) {
	n.dissolve(ctx)
	for _, gid := range n.liveTables() {
		if n.geneses[gid].SeatOf(n.self.Public()) >= 0 {
			if e := n.genesisEntries[gid]; e != nil {
				n.adopt(ctx, e)
			}
			break
		}
	}
}

// heardLeft takes a player's word that it left a table before its game started: the table is
// dead. This node's own table dissolves, if that is it and its game has not started here,
// unless the word is from a seat that announced every key (a node that holds them all does
// not leave: its word contradicts its head, and the barrier of act trusts the head).
func (n *Node) heardLeft(ctx context.Context, l *left) {
	if !n.mayHearLeft(l) {
		return
	}
	if t := n.table; t != nil && t.id == l.table {
		if t.Started() {
			return
		}
		if seat := t.g.SeatOf(l.key); seat >= 0 && n.heads[seat] > uint64(len(t.g.Roster)) {
			n.cfg.Logf("seat %d says it left table %x, yet announced every key: ignored", seat, t.id[:4])
			return
		}
	}
	n.dead[l.table] = true
	delete(n.members, string(l.key)) // it sits elsewhere, or forms again and says hello
	n.checkTable(ctx)
}

// mayHearLeft reports whether a left notice (its signature checked or not) can change
// anything here: it is for a table of this node's name that is not yet dead, from one of its
// players.
func (f *former) mayHearLeft(l *left) bool {
	g := f.geneses[l.table]
	return g != nil && g.SeatOf(l.key) >= 0 && !f.dead[l.table]
}

// sayLeft says again this node's left notices, at most every leftEvery: a node that missed one
// (or had not yet heard the genesis it names) hears it then. Every tick was too often: at a
// table formed with some tables dissolved, every node said up to eight notices fifty times a
// second, and on a busy machine the checks of their signatures slowed every node to a crawl,
// which made the next formation slower still.
func (n *Node) sayLeft(ctx context.Context, now time.Time) {
	if len(n.leftWords) == 0 || now.Sub(n.leftSaidAt) < leftEvery {
		return
	}
	n.leftSaidAt = now
	for _, l := range n.leftWords {
		n.publish(ctx, l.marshal())
	}
}

// leftEvery is how often a node says its left notices again.
const leftEvery = 500 * time.Millisecond

// leave makes this node's left notice for table, says it, and keeps it to say again.
func (n *Node) leave(ctx context.Context, table [32]byte) {
	for _, l := range n.leftWords {
		if l.table == table {
			return
		}
	}
	n.dead[table] = true
	l := newLeft(n.cfg.Identity, table)
	n.leftWords = append([]*left{l}, n.leftWords[:min(len(n.leftWords), maxLeftWords-1)]...)
	n.publish(ctx, l.marshal())
}

// startedBy is told of each entry the node appends to its table: the first past the keys
// starts the table, and the node then refuses every other genesis that seats it.
func (n *Node) startedBy(ctx context.Context, e *Entry) {
	if t := n.table; t != nil && e.Seq == uint64(len(t.g.Roster))+1 {
		n.refuseOthers(ctx)
	}
}

// refuseOthers says, once this node's table has started, that it left every other genesis
// that seats it: it never sits at one now, and their nodes, which may not know of this table
// (they missed its genesis), would otherwise wait for it.
func (n *Node) refuseOthers(ctx context.Context) {
	t := n.table
	if t == nil || !t.Started() {
		return
	}
	for gid, g := range n.geneses {
		if gid != t.id && g.SeatOf(n.self.Public()) >= 0 && !n.started[gid] {
			n.leave(ctx, gid)
		}
	}
}

// dissolve leaves a table that never started: its log is archived, the node says it left
// (signed, so that the table's other nodes leave it too), and it forms again.
func (n *Node) dissolve(ctx context.Context) {
	t := n.table
	n.leave(ctx, t.id)
	if _, err := n.cfg.Store.ArchiveLog(n.cfg.Table, t.id, "dissolved"); err != nil {
		n.cfg.Logf("%v", err)
	}
	seed, err := n.cfg.Store.NewTableSeed(n.cfg.Table)
	if err != nil {
		n.cfg.Logf("%v", err)
	}
	n.standUp(NewSelf(n.cfg.Identity, seed))
	n.formingSince = n.clock.Now()
	n.unshare()
	n.forgetHeads()
}

// olderNewer says whether a protocol version is older or newer than this build's.
func olderNewer(v uint8) string {
	if v < entryVersion {
		return "an older"
	}
	return "a newer"
}

// settingsDiff says, in words, how a hello's settings differ from this node's.
func (n *Node) settingsDiff(h *hello) string {
	var d []string
	if h.game != n.cfg.Game {
		d = append(d, fmt.Sprintf("the game %q (we play %q)", h.game, n.cfg.Game))
	}
	if h.players != n.cfg.Players {
		d = append(d, fmt.Sprintf("%d players (we want %d)", h.players, n.cfg.Players))
	}
	if h.game == n.cfg.Game && string(h.config) != string(n.cfg.Config) {
		d = append(d, fmt.Sprintf("%s (we want %s)", describeConfig(h.game, h.config), describeConfig(n.cfg.Game, n.cfg.Config)))
	}
	return strings.Join(d, " and ")
}

// describeConfig is a game's configuration in words, or its bytes for a game this build does
// not know.
func describeConfig(game string, config []byte) string {
	g := &Genesis{Game: game}
	r, err := g.Rules()
	if err != nil {
		return fmt.Sprintf("configuration %x", config)
	}
	return r.DescribeConfig(config)
}

// Heard is how many nodes (this one included) want the table and sit nowhere yet, as this node
// last heard them. Only safe once Run has returned.
func (n *Node) Heard() int { return len(n.candidates()) }

// waiting tells the player why the table has not formed yet, when that changes: in words when
// other tables of the name took players, in the verbose log otherwise.
func (n *Node) waiting() {
	keys := n.candidates()
	var names []string
	for _, k := range keys {
		names = append(names, n.members[k].name)
	}
	say := fmt.Sprintf("table %q waits for players: %d of %d heard (%s)", n.cfg.Table, len(keys), n.cfg.Players, strings.Join(names, ", "))
	live := n.liveTables()
	if len(live) > 0 {
		say += fmt.Sprintf("; %d other table(s) of that name are full", len(live))
	}
	if say == n.waitSaid {
		return
	}
	n.waitSaid = say
	if len(live) > 0 {
		n.cfg.Notef("%s", say)
	} else {
		n.cfg.Logf("%s", say)
	}
}

// adopt takes a genesis that seats this node (and notes any genesis of this table's name).
func (n *Node) adopt(ctx context.Context, e *Entry) {
	n.noteGenesis(ctx, e)
	if e.version() != entryVersion {
		n.cfg.Logf("ignoring a genesis of protocol version %d (this release plays %d)", e.version(), entryVersion)
		return
	}
	g, err := ParseGenesis(e.Body)
	if err != nil || g.Name != n.cfg.Table || g.SeatOf(n.self.Public()) < 0 {
		return
	}
	if p := n.cfg.Private; p != nil && !p.Creator.Equal(g.Roster[0].Key) {
		return
	}
	if n.dead[e.Table] {
		return // one of its players left it before it started: it never will
	}
	// From here on, a genesis this node does not sit at is one it refuses: it says so (a left
	// notice), or the table's other nodes would wait for its key until their timeout.
	if t := n.table; t != nil {
		if t.id != e.Table {
			n.leave(ctx, e.Table) // it sits at another (noteGenesis would have moved it here)
		}
		return
	}
	if len(g.Roster) != n.cfg.Players || g.Game != n.cfg.Game || string(g.Config) != string(n.cfg.Config) {
		n.cfg.Logf("ignoring a genesis for %q with other settings", g.Name)
		n.leave(ctx, e.Table)
		return
	}
	for _, m := range g.Roster {
		if n.excluded(m.Key) {
			n.cfg.Logf("refusing a genesis for %q that seats %q, whom this table is played without", g.Name, m.Name)
			n.leave(ctx, e.Table)
			return
		}
		if n.seatedElsewhere(m.Key, e.Table) {
			n.leave(ctx, e.Table) // it cannot form: one of its players (this node, say) sits at a live table
			return
		}
	}
	t, err := NewTable(e, n.self, n.gameOpts())
	if err != nil {
		n.cfg.Logf("ignoring a genesis: %v", err)
		return
	}
	// A table this node sat at before, whose log it no longer has: sitting again would derive
	// its old secrets anew (a replayed genesis), so it never does.
	if played, err := n.cfg.Store.Played(e.Table); err != nil || played {
		if err == nil && n.firstTime("played "+string(e.Table[:])) {
			n.cfg.Notef("refusing table %q (id %x): this node sat at it before and no longer has its log; it never sits at one table twice", g.Name, e.Table[:8])
		}
		if err != nil {
			n.cfg.Logf("%v", err)
		} else {
			n.leave(ctx, e.Table)
		}
		return
	}
	if err := n.cfg.Store.MarkPlayed(e.Table); err != nil {
		n.cfg.Logf("%v", err)
		return
	}
	if err := n.cfg.Store.Append(e, true); err != nil {
		n.cfg.Logf("%v", err)
		return
	}
	n.sit(t)
	n.progressed(n.clock.Now())
	n.share()
	n.seated(e)
	n.cfg.Logf("table %q formed: seat %d of %d in the order keys were heard (the seats are drawn next)", g.Name, n.self.seat, len(g.Roster))
	n.publish(ctx, append([]byte{msgEntry}, e.Marshal()...))
}

// FormError is why a table did not form in time.
type FormError struct {
	Table   string
	Wait    time.Duration
	Players int
	Heard   []string // the names of the nodes heard that want the table
	Full    int      // other tables of that name that are full
}

func (e *FormError) Error() string {
	s := fmt.Sprintf("table %q did not form within %v: %d of %d players heard", e.Table, e.Wait, len(e.Heard), e.Players)
	if len(e.Heard) > 0 {
		s += " (" + strings.Join(e.Heard, ", ") + ")"
	}
	if e.Full > 0 {
		s += fmt.Sprintf("; %d other table(s) of that name were full", e.Full)
	}
	return s
}

func (n *Node) formError() *FormError {
	e := &FormError{Table: n.cfg.Table, Wait: n.cfg.FormTimeout, Players: n.cfg.Players, Full: len(n.liveTables())}
	for _, k := range n.candidates() {
		e.Heard = append(e.Heard, n.members[k].name)
	}
	return e
}

// privateRoster is the roster of a private table, by key: its creator first, then the first
// players-1 other candidates in key order.
func privateRoster(candidates []string, creator ed25519.PublicKey, players int) []string {
	keys := []string{string(creator)}
	for _, k := range candidates {
		if k != string(creator) && len(keys) < players {
			keys = append(keys, k)
		}
	}
	return keys
}
