package p2p

import (
	"testing"

	pb "github.com/libp2p/go-libp2p-pubsub/pb"
)

// TestMessageID: two messages of one author under one sequence number but with other bytes have
// two ids (so both are delivered, and a seat that signed two things is seen to); the same
// message has one id whoever relays it, and another sequence number is another message.
func TestMessageID(t *testing.T) {
	from, seq := []byte("author"), []byte{0, 0, 0, 0, 0, 0, 0, 7}
	a := &pb.Message{From: from, Seqno: seq, Data: []byte("c I pay you 1")}
	b := &pb.Message{From: from, Seqno: seq, Data: []byte("c I pay you 100")}
	again := &pb.Message{From: from, Seqno: seq, Data: []byte("c I pay you 1")}
	next := &pb.Message{From: from, Seqno: []byte{0, 0, 0, 0, 0, 0, 0, 8}, Data: []byte("c I pay you 1")}
	other := &pb.Message{From: []byte("other"), Seqno: seq, Data: []byte("c I pay you 1")}
	if messageID(a) == messageID(b) {
		t.Error("two messages under one sequence number share an id: the second is dropped as seen")
	}
	if messageID(a) != messageID(again) {
		t.Error("one message has two ids")
	}
	if messageID(a) == messageID(next) || messageID(a) == messageID(other) {
		t.Error("another sequence number or author gives the same id")
	}
}
