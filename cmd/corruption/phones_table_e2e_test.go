package main

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// countSockets counts, in a page, the WebSockets it opens (the seat's bridge to the laptop)
// and those that close without opening, and keeps the last (bridgeSockets); and it counts
// the vibrations the page asks for (the person's turns). It runs before the page's scripts.
const countSockets = `(() => {
  const Socket = globalThis.WebSocket;
  const s = globalThis.bridgeSockets = {opened: 0, failed: 0, last: null};
  globalThis.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      let open = false;
      s.last = this;
      this.addEventListener('open', () => { open = true; s.opened++; });
      this.addEventListener('close', () => { if (!open) s.failed++; });
    }
  };
  navigator.vibrate = () => { globalThis.vibrations = (globalThis.vibrations || 0) + 1; return true; };
})();`

// wifi stands for the Wi-Fi between a phone and the laptop's phones listener: a TCP relay on
// 127.0.0.1. drop cuts every connection through it and refuses new ones (accepted and closed
// at once, as a network that is gone); restore lets them through again. Chromium's own
// emulation cannot drop a WebSocket: Network.overrideNetworkState only sets navigator.onLine,
// and Network.emulateNetworkConditionsByRule offline holds an open WebSocket's frames without
// closing it (the table stalls; a close asked by the page then may wait past the spell).
type wifi struct {
	url   string // the phones' address through the relay
	to    string // the listener's host:port
	mu    sync.Mutex
	down  bool
	conns map[net.Conn]bool
}

func newWifi(t *testing.T, phonesURL string) *wifi {
	t.Helper()
	u, err := url.Parse(phonesURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w := &wifi{to: u.Host, conns: map[net.Conn]bool{}}
	u.Host = ln.Addr().String()
	w.url = u.String()
	t.Cleanup(func() {
		ln.Close()
		w.drop()
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go w.relay(c)
		}
	}()
	return w
}

// relay carries c to the listener and back, until either end closes or drop cuts it.
func (w *wifi) relay(c net.Conn) {
	w.mu.Lock()
	if w.down {
		w.mu.Unlock()
		c.Close()
		return
	}
	w.conns[c] = true
	w.mu.Unlock()
	defer w.forget(c)
	d, err := net.Dial("tcp", w.to)
	if err != nil {
		return
	}
	defer d.Close()
	done := make(chan struct{}, 2)
	go func() { io.Copy(d, c); done <- struct{}{} }()
	go func() { io.Copy(c, d); done <- struct{}{} }()
	<-done
}

func (w *wifi) forget(c net.Conn) {
	w.mu.Lock()
	delete(w.conns, c)
	w.mu.Unlock()
	c.Close()
}

func (w *wifi) drop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.down = true
	for c := range w.conns {
		c.Close()
	}
}

func (w *wifi) restore() {
	w.mu.Lock()
	w.down = false
	w.mu.Unlock()
}
