package bridge

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/coder/websocket"
)

// Conn is a connection that carries whole frames both ways: a WebSocket (WebSocket,
// DialWebSocket) or, in tests, anything else. Read and Write may be called at once from two
// goroutines (one reader, one writer); Close ends both.
type Conn interface {
	Read(ctx context.Context) ([]byte, error)
	Write(ctx context.Context, frame []byte) error
	Close() error
}

// Dialer opens a new connection to the hub, each time the Client (re)connects. ctx bounds the
// dial (10 s), not the connection it returns.
type Dialer func(ctx context.Context) (Conn, error)

// wsConn is a Conn over a WebSocket: one binary message a frame.
type wsConn struct{ c *websocket.Conn }

// WebSocket makes a Conn of a WebSocket, with its read limit set to MaxFrame.
func WebSocket(c *websocket.Conn) Conn {
	c.SetReadLimit(MaxFrame)
	return wsConn{c}
}

func (w wsConn) Read(ctx context.Context) ([]byte, error) {
	typ, b, err := w.c.Read(ctx)
	if err != nil {
		return nil, err
	}
	if typ != websocket.MessageBinary {
		return nil, errors.New("bridge: a text message on the bridge, where frames are binary")
	}
	return b, nil
}

func (w wsConn) Write(ctx context.Context, frame []byte) error {
	return w.c.Write(ctx, websocket.MessageBinary, frame)
}

func (w wsConn) Close() error { return w.c.CloseNow() }

// ErrRefused is a dial the laptop refused: the address's token is wrong, or old (the laptop
// drew a new one).
var ErrRefused = errors.New("bridge: the laptop refused this address: its token is wrong or old (open the address the laptop shows now)")

// DialWebSocket dials the hub's bridge at a ws:// or wss:// URL (BridgeURL makes it from the
// phone's page address). It builds for the browser (GOOS=js GOARCH=wasm) too, where the
// browser's own WebSocket carries it.
func DialWebSocket(u string) Dialer {
	return func(ctx context.Context) (Conn, error) {
		c, resp, err := websocket.Dial(ctx, u, nil)
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusForbidden {
				return nil, fmt.Errorf("%w (%s)", ErrRefused, redact(u))
			}
			return nil, fmt.Errorf("bridge: cannot connect to %s: %w", redact(u), err)
		}
		return WebSocket(c), nil
	}
}

// BridgePath is where a laptop's phones listener serves the bridge; the token rides in the
// query, as TokenParam, as in the page's address.
const (
	BridgePath = "/bridge"
	TokenParam = "t"
)

// BridgeURL turns the address a phone opened (http://HOST:PORT/?t=TOKEN, what the laptop
// prints and shows as a QR code) into its bridge's (ws://HOST:PORT/bridge?t=TOKEN).
func BridgeURL(page string) (string, error) {
	u, err := url.Parse(page)
	if err != nil {
		return "", fmt.Errorf("bridge: the page's address %q: %w", page, err)
	}
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("bridge: the page's address %q is not http or https", page)
	}
	tok := u.Query().Get(TokenParam)
	if tok == "" {
		return "", fmt.Errorf("bridge: the page's address %q carries no token (?%s=): open the address the laptop prints", page, TokenParam)
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: BridgePath, RawQuery: url.Values{TokenParam: {tok}}.Encode()}).String(), nil
}

// redact hides the token of a bridge URL, for messages.
func redact(u string) string {
	if i := strings.Index(u, "?"); i >= 0 {
		return u[:i]
	}
	return u
}
