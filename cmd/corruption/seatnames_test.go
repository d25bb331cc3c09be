package main

import (
	"testing"

	browserseat "corruption/seat"
)

// TestSeatNames: the browser seat (package seat) speaks on the same topics and protocol as a
// native node.
func TestSeatNames(t *testing.T) {
	for _, c := range [][2]string{{browserseat.TopicPrefix, topicPrefix}, {browserseat.LobbyTopic, lobbyTopic}, {browserseat.EntriesProto, entriesProto}} {
		if c[0] != c[1] {
			t.Errorf("the browser seat says %q where a native node says %q", c[0], c[1])
		}
	}
}
