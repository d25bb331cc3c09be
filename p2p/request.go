package p2p

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// Request/response limits. A request or a response larger than its limit is
// refused on both sides. A Request whose ctx has no deadline gets
// DefaultRequestTimeout; the serving side gives a request HandlerTimeout from
// its first byte to the end of its response.
const (
	MaxRequestSize        = 4 << 20
	MaxResponseSize       = 4 << 20
	DefaultRequestTimeout = 30 * time.Second
	HandlerTimeout        = 30 * time.Second
	maxErrorSize          = 64 << 10
)

// ErrUnknownPeer is returned by Request for a peer that is neither connected
// nor has a known address.
var ErrUnknownPeer = errors.New("unknown peer: not connected and no known address")

// RemoteError is a failure reported by the serving peer: its handler's
// error, or its refusal of a request or response over the size limits. A peer
// that does not serve the protocol at all gives an ordinary error instead.
type RemoteError struct {
	Peer     string // the peer that answered
	Protocol string
	Message  string // the peer's error text
}

func (e *RemoteError) Error() string {
	return fmt.Sprintf("peer %s answered %s with an error: %s", e.Peer, e.Protocol, e.Message)
}

// Wire format, one exchange per stream:
//
//	request:  uint32 big-endian length | payload
//	response: status byte | uint32 big-endian length | payload
//
// status 0 carries the handler's response, status 1 an error text.
const (
	statusOK    = 0
	statusError = 1
)

// Handle serves protocolID: each incoming request is passed to h with the
// requesting peer's id, and h's result (or its error's text) is sent back.
// h runs on its own goroutine per request and must return within
// HandlerTimeout. Handle replaces an earlier handler of the same protocol; a
// nil h stops serving it. protocolID is a libp2p protocol id, conventionally
// a versioned path such as "/corruption/sync/1".
func (n *Node) Handle(protocolID string, h func(from string, req []byte) ([]byte, error)) {
	pid := protocol.ID(protocolID)
	if h == nil {
		n.host.RemoveStreamHandler(pid)
		return
	}
	n.host.SetStreamHandler(pid, func(s network.Stream) {
		if !n.start(func() { n.serve(s, protocolID, h) }) {
			s.Reset()
		}
	})
}

func (n *Node) serve(s network.Stream, protocolID string, h func(string, []byte) ([]byte, error)) {
	if err := s.SetDeadline(time.Now().Add(HandlerTimeout)); err != nil {
		s.Reset()
		return
	}
	from := s.Conn().RemotePeer()
	req, err := readFrame(s, MaxRequestSize, "request")
	if err != nil {
		var tooBig *sizeError
		if errors.As(err, &tooBig) {
			writeResponse(s, statusError, []byte(err.Error()))
			s.Close()
			return
		}
		s.Reset()
		return
	}
	resp, err := h(from.String(), req)
	switch {
	case err != nil:
		msg := err.Error()
		if len(msg) > maxErrorSize {
			msg = msg[:maxErrorSize]
		}
		err = writeResponse(s, statusError, []byte(msg))
	case len(resp) > MaxResponseSize:
		n.logf("p2p: %s handler answered %s with %d bytes, over the %d byte limit", protocolID, from, len(resp), MaxResponseSize)
		err = writeResponse(s, statusError, fmt.Appendf(nil, "response of %d bytes exceeds the %d byte limit", len(resp), MaxResponseSize))
	default:
		err = writeResponse(s, statusOK, resp)
	}
	if err != nil {
		s.Reset()
		return
	}
	s.Close()
}

// Request sends req to peer over protocolID and returns the response. It
// fails with a *RemoteError when the peer's handler returned an error, with
// ErrUnknownPeer when the peer is neither connected nor has a known address,
// and with ctx's error when ctx ends first. Without a deadline in ctx it
// waits at most DefaultRequestTimeout.
func (n *Node) Request(ctx context.Context, peerID, protocolID string, req []byte) ([]byte, error) {
	fail := func(err error) ([]byte, error) {
		return nil, fmt.Errorf("request %s to %s: %w", protocolID, peerID, err)
	}
	if len(req) > MaxRequestSize {
		return fail(&sizeError{what: "request", size: int64(len(req)), limit: MaxRequestSize})
	}
	pid, err := peer.Decode(peerID)
	if err != nil {
		return nil, fmt.Errorf("bad peer id %q: %w", peerID, err)
	}
	if pid == n.host.ID() {
		return fail(errors.New("a node cannot request from itself"))
	}
	if n.ctx.Err() != nil {
		return fail(ErrClosed)
	}
	if !n.connected(pid) && len(n.host.Peerstore().Addrs(pid)) == 0 {
		return fail(ErrUnknownPeer)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultRequestTimeout)
		defer cancel()
	}
	// The exchange ends early if ctx ends or the node closes.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopNode := context.AfterFunc(n.ctx, cancel)
	defer stopNode()

	// A limited (relayed) connection carries requests too (relay.go).
	s, err := n.host.NewStream(network.WithAllowLimitedConn(ctx, "request"), pid, protocol.ID(protocolID))
	if err != nil {
		return fail(n.ctxErr(ctx, err))
	}
	// Resetting the stream when ctx ends (rather than setting a stream
	// deadline) guarantees ctx.Err() is set by the time a read fails.
	stop := context.AfterFunc(ctx, func() { s.Reset() })
	defer stop()

	if err := writeFrame(s, req); err != nil {
		s.Reset()
		return fail(n.ctxErr(ctx, fmt.Errorf("cannot send: %w", err)))
	}
	if err := s.CloseWrite(); err != nil {
		s.Reset()
		return fail(n.ctxErr(ctx, fmt.Errorf("cannot send: %w", err)))
	}
	var status [1]byte
	if _, err := io.ReadFull(s, status[:]); err != nil {
		s.Reset()
		return fail(n.ctxErr(ctx, fmt.Errorf("no response: %w", err)))
	}
	limit := MaxResponseSize
	if status[0] == statusError {
		limit = maxErrorSize
	}
	body, err := readFrame(s, limit, "response")
	if err != nil {
		s.Reset()
		return fail(n.ctxErr(ctx, err))
	}
	s.Close()
	switch status[0] {
	case statusOK:
		return body, nil
	case statusError:
		return nil, &RemoteError{Peer: peerID, Protocol: protocolID, Message: string(body)}
	default:
		return fail(fmt.Errorf("bad response status %d", status[0]))
	}
}

// ctxErr prefers the reason the exchange was cut short over the stream error
// that the cut caused.
func (n *Node) ctxErr(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	if n.ctx.Err() != nil {
		return ErrClosed
	}
	return fmt.Errorf("%w (%v)", context.Cause(ctx), err)
}

// sizeError is a frame over its limit.
type sizeError struct {
	what  string
	size  int64
	limit int
}

func (e *sizeError) Error() string {
	return fmt.Sprintf("%s of %d bytes exceeds the %d byte limit", e.what, e.size, e.limit)
}

func writeFrame(w io.Writer, payload []byte) error {
	buf := make([]byte, 4+len(payload))
	binary.BigEndian.PutUint32(buf, uint32(len(payload)))
	copy(buf[4:], payload)
	_, err := w.Write(buf)
	return err
}

func writeResponse(w io.Writer, status byte, payload []byte) error {
	buf := make([]byte, 5+len(payload))
	buf[0] = status
	binary.BigEndian.PutUint32(buf[1:], uint32(len(payload)))
	copy(buf[5:], payload)
	_, err := w.Write(buf)
	return err
}

func readFrame(r io.Reader, limit int, what string) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("cannot read %s length: %w", what, err)
	}
	size := binary.BigEndian.Uint32(hdr[:])
	if int64(size) > int64(limit) {
		return nil, &sizeError{what: what, size: int64(size), limit: limit}
	}
	buf := make([]byte, size)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	return buf, nil
}
