package bridge

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
)

// everyFrame is one frame of each kind, with every field used.
func everyFrame() []*Frame {
	return []*Frame{
		{Kind: KindHello, Version: Version},
		{Kind: KindSubscribe, ID: 7, Topic: "corruption/2/table/t1"},
		{Kind: KindUnsubscribe, Topic: "corruption/2/lobby"},
		{Kind: KindPublish, Topic: "t", Data: []byte{1, 2, 3}},
		{Kind: KindRequest, ID: 1 << 31, Peer: "12D3KooWabc", Proto: "/corruption/entries/2", Data: []byte{}},
		{Kind: KindServe, Proto: "/corruption/join/2"},
		{Kind: KindUnserve, Proto: "/corruption/join/2"},
		{Kind: KindReply, ID: 3, Data: []byte("answer")},
		{Kind: KindReply, ID: 4, Err: "no such table here"},
		{Kind: KindPing},
		{Kind: KindIdentify, ID: 11, Key: bytes.Repeat([]byte{7}, KeySize), Sig: bytes.Repeat([]byte{9}, SigSize)},
		{Kind: KindSit, ID: 12, Proto: "/corruption/entries/2", Data: []byte("genesis")},
		{Kind: KindSubscribe, ID: 13, Topic: "corruption/2/table/ann's table — Ψ 🎲"},
		{Kind: KindWelcome, Version: Version, Peer: "local/2", Node: "12D3KooWlaptop", Label: "ann"},
		{Kind: KindWelcome, Version: Version, Peer: "local/3", Node: "12D3KooWlaptop", Label: "Zoë's 💻"},
		{Kind: KindResult, ID: 9},
		{Kind: KindResult, ID: 9, Err: "topic refused"},
		{Kind: KindMessage, Topic: "t", Peer: "local/1", Data: []byte("m")},
		{Kind: KindAnswer, ID: 5, Data: []byte{0}},
		{Kind: KindAnswer, ID: 6, Err: "peer gone"},
		{Kind: KindIncoming, ID: 8, Peer: "12D3KooWx", Proto: "/p", Data: []byte("req")},
		{Kind: KindPeers, Topic: "t", Peers: []string{"local/1", "12D3KooWx"}},
		{Kind: KindPeers, Topic: "t"},
		{Kind: KindError, Err: "refused"},
		{Kind: KindPong},
		{Kind: KindBye, Reason: ByeMoved, Err: "scan the new code"},
		{Kind: KindBye, Reason: ByeClosing, Err: "the laptop stopped"},
	}
}

// TestFrameRoundTrip: every kind encodes, decodes to the same frame, and is refused when cut
// short by one byte or given one byte more.
func TestFrameRoundTrip(t *testing.T) {
	for _, f := range everyFrame() {
		b, err := f.Encode()
		if err != nil {
			t.Fatalf("%s: %v", f.Kind, err)
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", f.Kind, err)
		}
		if f.Data == nil && got.Data != nil && len(got.Data) == 0 && f.Err == "" &&
			(f.Kind == KindPublish || f.Kind == KindRequest || f.Kind == KindIncoming || f.Kind == KindMessage || f.Kind == KindReply || f.Kind == KindAnswer) {
			got.Data = nil
		}
		if !reflect.DeepEqual(got, f) {
			t.Errorf("%s: decoded %+v, want %+v", f.Kind, got, f)
		}
		if _, err := Decode(b[:len(b)-1]); err == nil && len(b) > 1 {
			t.Errorf("%s: cut short by a byte, decoded", f.Kind)
		}
		if _, err := Decode(append(b, 0)); err == nil || !strings.Contains(err.Error(), "after the frame") {
			t.Errorf("%s: a byte more: %v", f.Kind, err)
		}
	}
}

// TestDecodeRefuses: what is wrong with a frame is named.
func TestDecodeRefuses(t *testing.T) {
	enc := func(f *Frame) []byte {
		b, err := f.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	u32 := func(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "empty frame"},
		{"unknown kind", []byte{99}, "unknown frame kind 99"},
		{"not the protocol", append([]byte{byte(KindHello)}, "corruption-bridgf\x01"...), "not the bridge protocol"},
		{"empty topic", append([]byte{byte(KindUnsubscribe)}, 0, 0), "topic of 0 bytes"},
		{"a topic not UTF-8", append([]byte{byte(KindUnsubscribe)}, 0, 3, 'a', 0xff, 'b'), "not valid UTF-8"},
		{"space in a protocol", append([]byte{byte(KindServe)}, 0, 3, 'a', ' ', 'b'), "not printable ASCII"},
		{"a key cut short", append(append([]byte{byte(KindIdentify)}, u32(1)...), make([]byte, KeySize+SigSize-1)...), "cut short in its signature"},
		{"a label too long", append(append(append([]byte{byte(KindWelcome)}, Magic...), Version, 0, 1, 'm', 0, 1, 'n', 1, 0), make([]byte, 256)...), "label of 256 bytes"},
		{"status 2", append(append([]byte{byte(KindAnswer)}, u32(1)...), 2), "status 2, want 0 or 1"},
		{"empty error", append(append(append([]byte{byte(KindAnswer)}, u32(1)...), 1), u32(0)...), "error text of 0 bytes"},
		{"data over the limit", append(append([]byte{byte(KindPublish)}, 0, 1, 't'), u32(MaxData+1)...), "over the limit"},
		{"data cut short", append(append([]byte{byte(KindPublish)}, 0, 1, 't'), u32(10)...), "cut short in its data"},
		{"too many peers", append([]byte{byte(KindPeers)}, 0, 1, 't', 0xff, 0xff), "65535 peers"},
		{"a frame too large", make([]byte, MaxFrame+1), "over the limit of"},
		{"an extra byte", append(enc(&Frame{Kind: KindServe, Proto: "/p"}), 'x'), "1 bytes after the frame"},
		{"a bye of no reason", append([]byte{byte(KindBye), 0}, append(u32(1), 'x')...), "bye reason 0"},
		{"a ping with a byte", []byte{byte(KindPing), 0}, "frame of kind ping: 1 bytes after the frame"},
		{"a pong with bytes", []byte{byte(KindPong), 'p', 'o', 'n', 'g'}, "frame of kind pong: 4 bytes after the frame"},
	}
	for _, c := range cases {
		_, err := Decode(c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if _, err := (&Frame{Kind: KindPublish, Topic: "bad\xfftopic"}).Encode(); err == nil {
		t.Error("encoded a topic that is not UTF-8")
	}
	if _, err := (&Frame{Kind: KindIdentify, Key: []byte{1}, Sig: make([]byte, SigSize)}).Encode(); err == nil {
		t.Error("encoded an identify with a key of 1 byte")
	}
	if _, err := (&Frame{Kind: 0}).Encode(); err == nil {
		t.Error("encoded a frame of kind 0")
	}
}

// FuzzDecode: Decode never panics, and a frame it takes encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	for _, fr := range everyFrame() {
		b, err := fr.Encode()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := Decode(b)
		if err != nil {
			return
		}
		again, err := fr.Encode()
		if err != nil {
			t.Fatalf("decoded %+v, which does not encode: %v", fr, err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("decoded and encoded again: %x, want %x", again, b)
		}
	})
}
