package bridge

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestDoor: one address that opens idle connections past its limit (some having made a
// request and kept the connection, some having sent nothing) never holds more than its limit;
// a request from the same address, and one from another, are answered; busy connections (a
// WebSocket) are never closed for another; the closing is logged once, not once a connection.
func TestDoor(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logs []string
	d := NewDoor(ln, DoorConfig{PerAddress: 8, Total: 12, Logf: func(f string, a ...any) {
		mu.Lock()
		logs = append(logs, f)
		mu.Unlock()
	}})
	hold := make(chan struct{})
	defer close(hold)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page") })
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) { // a connection in use, as a WebSocket
		c, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbusy"))
		<-hold
		c.Close()
	})
	srv := &http.Server{Handler: mux, ConnState: d.ConnState, IdleTimeout: time.Minute}
	go srv.Serve(d)
	defer srv.Close()
	addr := ln.Addr().String()

	get := func(c net.Conn, path string) (string, error) {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
			return "", err
		}
		r, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return "", err
		}
		b, err := io.ReadAll(r.Body)
		return string(b), err
	}
	busy, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	if got, err := get(busy, "/busy"); err != nil || got != "busy" {
		t.Fatalf("the busy connection: %q, %v", got, err)
	}
	for i := range 40 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if i%2 == 0 { // a request, then the connection kept idle
			if got, err := get(c, "/"); err != nil || got != "page" {
				t.Fatalf("idle connection %d: %q, %v", i, got, err)
			}
		}
		if all, from := d.Open("127.0.0.1"); from > 8 || all > 12 {
			t.Fatalf("after %d connections the door holds %d from the address, %d in all: over its limits", i+1, from, all)
		}
	}
	// A phone's request from the same address, on a new connection: answered.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, err := get(c, "/"); err != nil || got != "page" {
		t.Errorf("a new request among the idle connections: %q, %v", got, err)
	}
	// The busy connection was never closed for another.
	busy.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := busy.Read(make([]byte, 1)); err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("the busy connection: %v, want it still open (a read timeout)", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logs) != 1 {
		t.Errorf("the door logged %d times, want once a minute: %q", len(logs), logs)
	}
}

// TestDoorRefusesWhenAllBusy: when every connection is busy, a new one is closed at once,
// and the refusal logged once.
func TestDoorRefusesWhenAllBusy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logs []string
	d := NewDoor(ln, DoorConfig{PerAddress: 2, Total: 2, Logf: func(f string, a ...any) {
		mu.Lock()
		logs = append(logs, f)
		mu.Unlock()
	}})
	defer d.Close()
	accepted := make(chan net.Conn, 8)
	go func() {
		for {
			c, err := d.Accept()
			if err != nil {
				return
			}
			d.ConnState(c, http.StateActive) // busy at once
			accepted <- c
		}
	}()
	for range 2 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		<-accepted
	}
	for range 3 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Read(make([]byte, 1)); err != io.EOF {
			t.Errorf("a connection past the limits, all busy: %v, want it closed", err)
		}
		c.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logs) != 1 || !strings.Contains(logs[0], "refused") {
		t.Errorf("the door logged %q, want one refusal", logs)
	}
}

// TestOwnHosts: a request whose Host is this machine's address (or the one given, or
// localhost) is served; any name is answered 421 (DNS rebinding).
func TestOwnHosts(t *testing.T) {
	h := OwnHosts(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }), "192.0.2.7")
	for host, want := range map[string]int{
		"127.0.0.1:4000": 200, "[::1]:4000": 200, "localhost:4000": 200, "192.0.2.7:8080": 200, "127.0.0.1": 200,
		"evil.example:4000": 421, "192.0.2.8:4000": 421, "127.0.0.1.nip.io:4000": 421, "": 421,
	} {
		r, _ := http.NewRequest("GET", "http://x/", nil)
		r.Host = host
		w := &recorder{header: http.Header{}}
		h.ServeHTTP(w, r)
		if w.code == 0 {
			w.code = 200
		}
		if w.code != want {
			t.Errorf("Host %q: %d, want %d", host, w.code, want)
		}
	}
}

type recorder struct {
	header http.Header
	code   int
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *recorder) WriteHeader(code int)        { r.code = code }
