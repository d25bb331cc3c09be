package bridge

import (
	"context"
	"sync"
)

// link is one frame connection with its writer: frames are queued (send) and written in order
// by one goroutine, so that a slow reader on the other side never blocks the sender. A link
// whose queue overflows, or whose write fails, closes: its reader then fails, and the side
// that dialed connects again.
type link struct {
	conn   Conn
	out    chan []byte
	ctx    context.Context
	cancel context.CancelFunc
	once   sync.Once
	done   chan struct{} // closed when the writer returned
	logf   func(string, ...any)
}

func newLink(conn Conn, logf func(string, ...any)) *link {
	l := &link{conn: conn, out: make(chan []byte, queueSize), done: make(chan struct{}), logf: logf}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	go l.write()
	return l
}

// send queues a frame; false when the link is closed or its queue full (it then closes).
func (l *link) send(f *Frame) bool {
	b, err := f.Encode()
	if err != nil {
		l.logf("bridge: not sent: %v", err)
		return false
	}
	if l.ctx.Err() != nil {
		return false
	}
	select {
	case l.out <- b:
		return true
	default:
		l.logf("bridge: %d frames waiting to be written: closing the connection", queueSize)
		l.close()
		return false
	}
}

func (l *link) write() {
	defer close(l.done)
	for {
		select {
		case <-l.ctx.Done():
			return
		case b := <-l.out:
			if err := l.conn.Write(l.ctx, b); err != nil {
				l.close()
				return
			}
		}
	}
}

// read is the next frame from the other side.
func (l *link) read() (*Frame, error) {
	b, err := l.conn.Read(l.ctx)
	if err != nil {
		return nil, err
	}
	return Decode(b)
}

// close closes the connection (at once: what is queued is dropped).
func (l *link) close() {
	l.once.Do(func() {
		l.cancel()
		l.conn.Close()
	})
}
