package bridge

import (
	"context"
	"errors"
	"sync"
)

// pipe is one end of an in-memory frame connection.
type pipe struct {
	in, out chan []byte
	done    chan struct{}
	once    *sync.Once
}

func pipes() (Conn, Conn) {
	a, b := make(chan []byte, 64), make(chan []byte, 64)
	done, once := make(chan struct{}), &sync.Once{}
	return &pipe{in: a, out: b, done: done, once: once}, &pipe{in: b, out: a, done: done, once: once}
}

// Read gives what was written before the pipe closed first, as a WebSocket over TCP does (a
// select between a frame waiting and the close would pick either: a Bye written just before
// the close was lost one time in a few under the race detector).
func (p *pipe) Read(ctx context.Context) ([]byte, error) {
	select {
	case b := <-p.in:
		return b, nil
	case <-p.done:
		select {
		case b := <-p.in:
			return b, nil
		default:
		}
		return nil, errors.New("pipe closed")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pipe) Write(ctx context.Context, b []byte) error {
	select {
	case p.out <- b:
		return nil
	case <-p.done:
		return errors.New("pipe closed")
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *pipe) Close() error {
	p.once.Do(func() { close(p.done) })
	return nil
}
