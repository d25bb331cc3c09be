package bridge

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// link is one frame connection with its writer: frames are queued (send) and written in order
// by one goroutine, so that a slow reader on the other side never blocks the sender. A link
// whose queue overflows, or whose write fails, closes: its reader then fails, and the side
// that dialed connects again. It keeps the times of the last frame read and the last queued,
// for its keepalive.
type link struct {
	conn   Conn
	out    chan []byte
	ctx    context.Context
	cancel context.CancelFunc
	once   sync.Once
	done   chan struct{} // closed when the writer returned
	logf   func(string, ...any)

	born        time.Time
	heard, sent atomic.Int64 // the last frame read, and queued: time.Duration since born

	mu    sync.Mutex
	cause error // why fail closed it, for read
}

func newLink(conn Conn, logf func(string, ...any)) *link {
	l := &link{conn: conn, out: make(chan []byte, queueSize), done: make(chan struct{}), logf: logf, born: time.Now()}
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
		l.sent.Store(int64(l.age()))
		return true
	default:
		l.logf("bridge: %d frames waiting to be written: closing the connection", queueSize)
		l.close()
		return false
	}
}

// sendAndClose queues a last frame and closes the link once it is written (at once when it
// cannot be queued).
func (l *link) sendAndClose(f *Frame) {
	b, err := f.Encode()
	if err != nil || l.ctx.Err() != nil {
		l.close()
		return
	}
	select {
	case l.out <- b:
		select {
		case l.out <- nil: // the writer closes the link when it comes to it
		default:
			l.close()
		}
	default:
		l.close()
	}
}

func (l *link) write() {
	defer close(l.done)
	for {
		select {
		case <-l.ctx.Done():
			return
		case b := <-l.out:
			if b == nil { // sendAndClose's last frame was written
				l.close()
				return
			}
			if err := l.conn.Write(l.ctx, b); err != nil {
				l.close()
				return
			}
		}
	}
}

// read is the next frame from the other side. Once fail closed the link, its error is fail's.
func (l *link) read() (*Frame, error) {
	b, err := l.conn.Read(l.ctx)
	if err != nil {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.cause != nil {
			return nil, l.cause
		}
		return nil, err
	}
	l.heard.Store(int64(l.age()))
	return Decode(b)
}

// close closes the connection (at once: what is queued is dropped).
func (l *link) close() {
	l.once.Do(func() {
		l.cancel()
		l.conn.Close()
	})
}

// fail closes the connection for a reason, which read returns from then on (unless it was
// closed already).
func (l *link) fail(err error) {
	l.once.Do(func() {
		l.mu.Lock()
		l.cause = err
		l.mu.Unlock()
		l.cancel()
		l.conn.Close()
	})
}

// age is the time since the link was made; lastHeard and lastSent are the ages of its last
// frame read and queued (0 before any).
func (l *link) age() time.Duration       { return time.Since(l.born) }
func (l *link) lastHeard() time.Duration { return time.Duration(l.heard.Load()) }
func (l *link) lastSent() time.Duration  { return time.Duration(l.sent.Load()) }
