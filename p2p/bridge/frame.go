package bridge

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"
)

// The frames. Every WebSocket message is one binary frame: a kind byte, then the kind's
// fields in a fixed order, nothing after. Fields: u8, u32 (big-endian), a name (u16 length,
// then 1 to MaxName bytes of printable ASCII, no space: a protocol, a peer or a member id), a
// topic (u16 length, then 1 to MaxName bytes of valid UTF-8: which topics a laptop relays is
// its Policy's to say, not the frame's), a label (u16 length, then 0 to MaxLabel bytes of valid
// UTF-8), data (u32 length, then at most MaxData bytes), a list of names (u16 count at most
// MaxPeers, then the names), a key (32 bytes) and a signature (64 bytes). docs/PROTOCOL.md,
// "The bridge", has the table of kinds; this file is its one implementation.

// Version is the bridge protocol's version, in Hello and Welcome. A hub answers a Hello of
// another version with an Error frame that names both, and closes; a client leaves a hub whose
// Welcome is of another. Version 2 added Ping and Pong (keepalive.go); version 3 Identify and
// Sit, the laptop's label in the Welcome, and topics of any UTF-8.
const Version = 3

// Magic opens every Hello and Welcome: a WebSocket that speaks something else is told so.
const Magic = "corruption-bridge"

// Limits of a frame's fields. MaxData holds the largest request or answer of p2p (4 MiB);
// MaxFrame is the largest frame, which a WebSocket reader sets as its read limit.
const (
	MaxName  = 256
	MaxLabel = 128
	MaxData  = 4 << 20
	MaxPeers = 1024
	MaxFrame = MaxData + 64<<10
)

// Sizes of an Identify frame's key and signature (Ed25519's).
const (
	KeySize = 32
	SigSize = 64
)

// Kind is a frame's kind, its first byte.
type Kind uint8

// From the phone to the laptop.
const (
	KindHello       Kind = 1  // Magic, Version: the first frame of a connection
	KindSubscribe   Kind = 2  // ID, Topic: join a topic (answered by a Result of the same ID)
	KindUnsubscribe Kind = 3  // Topic: leave it
	KindPublish     Kind = 4  // Topic, Data: say it on the topic
	KindRequest     Kind = 5  // ID, Peer, Proto, Data: a request to a peer (answered by an Answer)
	KindServe       Kind = 6  // Proto: this phone serves requests on the protocol
	KindUnserve     Kind = 7  // Proto: it no longer does
	KindReply       Kind = 8  // ID, Err or Data: the phone's answer to an Incoming request
	KindPing        Kind = 9  // nothing: the phone is there (answered by a Pong; keepalive.go)
	KindIdentify    Kind = 10 // ID, Key, Sig: the seat's key, signed for this connection (answered by a Result)
	KindSit         Kind = 11 // ID, Proto, Data: proof that the seat sits where its requests on Proto name (answered by a Result)
)

// From the laptop to the phone.
const (
	KindWelcome  Kind = 20 // Magic, Version, Peer (the phone's id as members see it), Node (the laptop's peer id), Label (whose laptop)
	KindResult   Kind = 21 // ID, Err: how a Subscribe, an Identify or a Sit went ("" for done)
	KindMessage  Kind = 22 // Topic, Peer (the sender), Data: a message heard on a topic
	KindAnswer   Kind = 23 // ID, Err or Data: the answer to the phone's Request
	KindIncoming Kind = 24 // ID, Peer (the asker), Proto, Data: a request for the phone to answer by a Reply
	KindPeers    Kind = 25 // Topic, Peers: the topic's peers now, as the phone should see them
	KindError    Kind = 26 // Err: what the laptop refused (a Publish, a Serve, a Hello), for the phone's log
	KindPong     Kind = 27 // nothing: the answer to a Ping
	KindBye      Kind = 28 // Reason, Err: the laptop closes the connection, and why (the phone's page says it)
)

// Why a laptop says Bye: its address changed (a new token: scan the new code), it stops (its
// tables end), or it serves as many phones as it may.
const (
	ByeMoved   uint8 = 1
	ByeClosing uint8 = 2
	ByeFull    uint8 = 3
)

// Frame is one decoded frame. Kind says which fields it carries (the table above); the others
// are zero. An Answer or a Reply carries Err when it failed (never empty then), else Data.
type Frame struct {
	Kind    Kind
	Version uint8
	ID      uint32
	Topic   string
	Peer    string
	Node    string
	Proto   string
	Label   string // the Welcome's: the laptop's person's name, or its machine's
	Data    []byte
	Err     string
	Peers   []string
	Key     []byte // the Identify's: the seat's Ed25519 public key
	Sig     []byte // the Identify's: its signature of IdentifyMessage
	Reason  uint8  // the Bye's: ByeMoved, ByeClosing or ByeFull
}

// Answer and Reply statuses.
const (
	statusOK  = 0
	statusErr = 1
)

// Encode returns the frame's bytes. It fails for a frame Decode would refuse: an unknown kind,
// or a field out of its limits.
func (f *Frame) Encode() ([]byte, error) {
	w := &writer{}
	w.u8(uint8(f.Kind))
	switch f.Kind {
	case KindHello:
		w.fixed(Magic)
		w.u8(f.Version)
	case KindWelcome:
		w.fixed(Magic)
		w.u8(f.Version)
		w.name(f.Peer, "member id")
		w.name(f.Node, "node id")
		w.label(f.Label)
	case KindSubscribe:
		w.u32(f.ID)
		w.topic(f.Topic)
	case KindUnsubscribe:
		w.topic(f.Topic)
	case KindPublish:
		w.topic(f.Topic)
		w.data(f.Data)
	case KindIdentify:
		w.u32(f.ID)
		w.exact(f.Key, KeySize, "key")
		w.exact(f.Sig, SigSize, "signature")
	case KindSit:
		w.u32(f.ID)
		w.name(f.Proto, "protocol")
		w.data(f.Data)
	case KindRequest, KindIncoming:
		w.u32(f.ID)
		w.name(f.Peer, "peer")
		w.name(f.Proto, "protocol")
		w.data(f.Data)
	case KindServe, KindUnserve:
		w.name(f.Proto, "protocol")
	case KindReply, KindAnswer:
		w.u32(f.ID)
		if f.Err != "" {
			w.u8(statusErr)
			w.text(f.Err)
		} else {
			w.u8(statusOK)
			w.data(f.Data)
		}
	case KindResult:
		w.u32(f.ID)
		if f.Err == "" {
			w.u8(statusOK)
		} else {
			w.u8(statusErr)
			w.text(f.Err)
		}
	case KindMessage:
		w.topic(f.Topic)
		w.name(f.Peer, "sender")
		w.data(f.Data)
	case KindPeers:
		w.topic(f.Topic)
		if len(f.Peers) > MaxPeers {
			w.fail(fmt.Errorf("%d peers, over the limit of %d", len(f.Peers), MaxPeers))
		}
		w.u16(len(f.Peers))
		for _, p := range f.Peers {
			w.name(p, "peer")
		}
	case KindError:
		w.text(f.Err)
	case KindBye:
		if f.Reason < ByeMoved || f.Reason > ByeFull {
			w.fail(fmt.Errorf("bye reason %d, want %d to %d", f.Reason, ByeMoved, ByeFull))
		}
		w.u8(f.Reason)
		w.text(f.Err)
	case KindPing, KindPong: // the kind byte alone
	default:
		return nil, fmt.Errorf("bridge: unknown frame kind %d", f.Kind)
	}
	if w.err != nil {
		return nil, fmt.Errorf("bridge: frame of kind %s: %w", f.Kind, w.err)
	}
	return w.b, nil
}

// Decode reads one frame, strictly: a known kind, every field within its limits, a status
// that is 0 or 1, an error text that is not empty, nothing left over. Its error names the kind
// and what was wrong.
func Decode(b []byte) (*Frame, error) {
	if len(b) == 0 {
		return nil, errors.New("bridge: empty frame")
	}
	if len(b) > MaxFrame {
		return nil, fmt.Errorf("bridge: frame of %d bytes, over the limit of %d", len(b), MaxFrame)
	}
	f := &Frame{Kind: Kind(b[0])}
	r := &reader{b: b[1:]}
	switch f.Kind {
	case KindHello:
		r.magic()
		f.Version = r.u8()
	case KindWelcome:
		r.magic()
		f.Version = r.u8()
		f.Peer = r.name("member id")
		f.Node = r.name("node id")
		f.Label = r.label()
	case KindSubscribe:
		f.ID = r.u32()
		f.Topic = r.topic()
	case KindUnsubscribe:
		f.Topic = r.topic()
	case KindPublish:
		f.Topic = r.topic()
		f.Data = r.data()
	case KindIdentify:
		f.ID = r.u32()
		f.Key = r.exact(KeySize, "key")
		f.Sig = r.exact(SigSize, "signature")
	case KindSit:
		f.ID = r.u32()
		f.Proto = r.name("protocol")
		f.Data = r.data()
	case KindRequest, KindIncoming:
		f.ID = r.u32()
		f.Peer = r.name("peer")
		f.Proto = r.name("protocol")
		f.Data = r.data()
	case KindServe, KindUnserve:
		f.Proto = r.name("protocol")
	case KindReply, KindAnswer:
		f.ID = r.u32()
		switch r.status() {
		case statusOK:
			f.Data = r.data()
		case statusErr:
			f.Err = r.text()
		}
	case KindResult:
		f.ID = r.u32()
		if r.status() == statusErr {
			f.Err = r.text()
		}
	case KindMessage:
		f.Topic = r.topic()
		f.Peer = r.name("sender")
		f.Data = r.data()
	case KindPeers:
		f.Topic = r.topic()
		n := r.u16()
		if n > MaxPeers {
			r.fail(fmt.Errorf("%d peers, over the limit of %d", n, MaxPeers))
		}
		for i := 0; i < n && r.err == nil; i++ {
			f.Peers = append(f.Peers, r.name("peer"))
		}
	case KindError:
		f.Err = r.text()
	case KindBye:
		f.Reason = r.u8()
		if r.err == nil && (f.Reason < ByeMoved || f.Reason > ByeFull) {
			r.fail(fmt.Errorf("bye reason %d, want %d to %d", f.Reason, ByeMoved, ByeFull))
		}
		f.Err = r.text()
	case KindPing, KindPong: // the kind byte alone: anything after it is refused below
	default:
		return nil, fmt.Errorf("bridge: unknown frame kind %d", b[0])
	}
	if r.err == nil && len(r.b) > 0 {
		r.fail(fmt.Errorf("%d bytes after the frame", len(r.b)))
	}
	if r.err != nil {
		return nil, fmt.Errorf("bridge: frame of kind %s: %w", f.Kind, r.err)
	}
	return f, nil
}

func (k Kind) String() string {
	switch k {
	case KindHello:
		return "hello"
	case KindSubscribe:
		return "subscribe"
	case KindUnsubscribe:
		return "unsubscribe"
	case KindPublish:
		return "publish"
	case KindRequest:
		return "request"
	case KindServe:
		return "serve"
	case KindUnserve:
		return "unserve"
	case KindReply:
		return "reply"
	case KindPing:
		return "ping"
	case KindIdentify:
		return "identify"
	case KindSit:
		return "sit"
	case KindWelcome:
		return "welcome"
	case KindResult:
		return "result"
	case KindMessage:
		return "message"
	case KindAnswer:
		return "answer"
	case KindIncoming:
		return "incoming"
	case KindPeers:
		return "peers"
	case KindError:
		return "error"
	case KindPong:
		return "pong"
	case KindBye:
		return "bye"
	}
	return fmt.Sprintf("%d", uint8(k))
}

// checkName says whether s is a name: 1 to MaxName bytes of printable ASCII, no space (topics,
// protocols and ids are all such).
func checkName(s, what string) error {
	if len(s) == 0 || len(s) > MaxName {
		return fmt.Errorf("%s of %d bytes, want 1 to %d", what, len(s), MaxName)
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return fmt.Errorf("%s %q: byte %d is not printable ASCII", what, s, i)
		}
	}
	return nil
}

// checkTopic says whether s is a topic: 1 to MaxName bytes of valid UTF-8. What a topic may
// name beyond that (a table's name with spaces, accents or emoji among them) is the Policy's
// to say: the frames keep no rule of their own (docs/PROTOCOL.md, "The bridge").
func checkTopic(s string) error {
	if len(s) == 0 || len(s) > MaxName {
		return fmt.Errorf("topic of %d bytes, want 1 to %d", len(s), MaxName)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("topic %q is not valid UTF-8", s)
	}
	return nil
}

// checkLabel says whether s is a label: at most MaxLabel bytes of valid UTF-8.
func checkLabel(s string) error {
	if len(s) > MaxLabel {
		return fmt.Errorf("label of %d bytes, want at most %d", len(s), MaxLabel)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("label %q is not valid UTF-8", s)
	}
	return nil
}

// checkText says whether s is an error text: 1 to maxText bytes.
func checkText(s string) error {
	if len(s) == 0 || len(s) > maxText {
		return fmt.Errorf("error text of %d bytes, want 1 to %d", len(s), maxText)
	}
	return nil
}

// maxText bounds an error text (p2p's, 64 KiB).
const maxText = 64 << 10

type writer struct {
	b   []byte
	err error
}

func (w *writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}
func (w *writer) u8(v uint8)     { w.b = append(w.b, v) }
func (w *writer) u16(v int)      { w.b = binary.BigEndian.AppendUint16(w.b, uint16(v)) }
func (w *writer) u32(v uint32)   { w.b = binary.BigEndian.AppendUint32(w.b, v) }
func (w *writer) fixed(s string) { w.b = append(w.b, s...) }
func (w *writer) name(s, what string) {
	if err := checkName(s, what); err != nil {
		w.fail(err)
	}
	w.u16(len(s))
	w.b = append(w.b, s...)
}
func (w *writer) topic(s string) {
	if err := checkTopic(s); err != nil {
		w.fail(err)
	}
	w.u16(len(s))
	w.b = append(w.b, s...)
}
func (w *writer) label(s string) {
	if err := checkLabel(s); err != nil {
		w.fail(err)
	}
	w.u16(len(s))
	w.b = append(w.b, s...)
}
func (w *writer) exact(b []byte, n int, what string) {
	if len(b) != n {
		w.fail(fmt.Errorf("%s of %d bytes, want %d", what, len(b), n))
	}
	w.b = append(w.b, b...)
}
func (w *writer) text(s string) {
	if err := checkText(s); err != nil {
		w.fail(err)
	}
	w.u32(uint32(len(s)))
	w.b = append(w.b, s...)
}
func (w *writer) data(d []byte) {
	if len(d) > MaxData {
		w.fail(fmt.Errorf("data of %d bytes, over the limit of %d", len(d), MaxData))
	}
	w.u32(uint32(len(d)))
	w.b = append(w.b, d...)
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.fail(fmt.Errorf("cut short in its %s (%d bytes left, want %d)", what, len(r.b), n))
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u8() uint8 {
	if b := r.take(1, "byte"); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u16() int {
	if b := r.take(2, "count"); b != nil {
		return int(binary.BigEndian.Uint16(b))
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.take(4, "number"); b != nil {
		return binary.BigEndian.Uint32(b)
	}
	return 0
}

func (r *reader) magic() {
	if b := r.take(len(Magic), "magic"); b != nil && string(b) != Magic {
		r.fail(fmt.Errorf("does not open with %q: not the bridge protocol", Magic))
	}
}

func (r *reader) status() uint8 {
	s := r.u8()
	if r.err == nil && s != statusOK && s != statusErr {
		r.fail(fmt.Errorf("status %d, want 0 or 1", s))
	}
	return s
}

func (r *reader) name(what string) string {
	n := r.u16()
	b := r.take(n, what)
	if r.err != nil {
		return ""
	}
	if err := checkName(string(b), what); err != nil {
		r.fail(err)
		return ""
	}
	return string(b)
}

func (r *reader) topic() string {
	n := r.u16()
	b := r.take(n, "topic")
	if r.err != nil {
		return ""
	}
	if err := checkTopic(string(b)); err != nil {
		r.fail(err)
		return ""
	}
	return string(b)
}

func (r *reader) label() string {
	n := r.u16()
	b := r.take(n, "label")
	if r.err != nil {
		return ""
	}
	if err := checkLabel(string(b)); err != nil {
		r.fail(err)
		return ""
	}
	return string(b)
}

func (r *reader) exact(n int, what string) []byte {
	b := r.take(n, what)
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

func (r *reader) text() string {
	n := r.u32()
	if r.err == nil && n > maxText {
		r.fail(fmt.Errorf("error text of %d bytes, over the limit of %d", n, maxText))
		return ""
	}
	b := r.take(int(n), "error text")
	if r.err == nil {
		if err := checkText(string(b)); err != nil {
			r.fail(err)
		}
	}
	return string(b)
}

func (r *reader) data() []byte {
	n := r.u32()
	if r.err == nil && n > MaxData {
		r.fail(fmt.Errorf("data of %d bytes, over the limit of %d", n, MaxData))
		return nil
	}
	b := r.take(int(n), "data")
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}
