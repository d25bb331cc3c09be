package tablenet

import "corruption/protocol"

// NetworkVersion is the network's version, in every name below and in the mDNS service
// (ServiceTag): releases of another network version ignore each other. Within it, entries
// carry their own version (protocol.EntryVersion), and the phones' bridge its own.
const NetworkVersion = 2

// The network's names, the same for a native seat and a browser seat, for this release and the
// last: a table of any name has the same topic for both (docs/PROTOCOL.md, "Messages on the
// table's channel").
const (
	ServiceTag    = "corruption-2"          // the mDNS service
	TablePrefix   = "corruption/2/table/"   // then the table's name
	LobbyTopic    = "corruption/2/lobby"    // where nodes waiting for their table announce it
	JoinTopic     = "corruption/2/join"     // where creators of private tables announce their nameplates
	PrivatePrefix = "corruption/2/private/" // then a private table's channel name
	EntriesProto  = "/corruption/entries/2" // fetching a table's entries
	JoinProto     = "/corruption/join/2"    // the join exchange of a private table
)

// TableTopic is the topic of the table of that name, or why the name is not a table's
// (protocol.CheckTableName, the one rule).
func TableTopic(name string) (string, error) {
	if err := protocol.CheckTableName(name); err != nil {
		return "", err
	}
	return TablePrefix + name, nil
}

// tableOf is the table a table topic names ("", false for another topic or a name that is
// not a table's).
func tableOf(topic string) (string, bool) {
	if len(topic) <= len(TablePrefix) || topic[:len(TablePrefix)] != TablePrefix {
		return "", false
	}
	name := topic[len(TablePrefix):]
	return name, protocol.CheckTableName(name) == nil
}

// isChannel says whether s is a private table's channel name: 32 lowercase hex digits.
func isChannel(s string) bool {
	if len(s) != 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
