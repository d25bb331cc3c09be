package main

import (
	"bufio"
	"context"
	"corruption/protocol/tablenet"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"sync"
	"testing"
	"time"
)

// TestPhonesListenerStarved (the third outside review): `corruption host` runs with its file
// limit lowered to 256 (in a child shell, not in the test binary). One address opens 400
// connections to the phones listener and holds them idle, three in four after a request (a
// keep-alive connection), the others having sent nothing, opening another a second after one
// is closed. (Before the door, the host held every one it could open, and a phone's request
// waited for a file it never got.) Meanwhile a phone's request for the
// page is answered, and a phone plays a whole table with the host's bots. The host says it
// closed idle connections to let others in once (a minute), not once a connection.
func TestPhonesListenerStarved(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes and 400 connections: the test command runs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), phoneTableTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", `ulimit -n 256 && exec "$0" "$@"`, bin, "host", "--phones-addr", "127.0.0.1:0",
		"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--timeout", "30s")
	host := startCmd(t, "host", cmd)
	page := host.waitLine(t, phoneLine, 30*time.Second)[1]
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	addr := u.Host

	// The crowd: 400 idle connections from 127.0.0.1, each opened again a second after the
	// host closes it.
	crowd, stop := context.WithCancel(ctx)
	defer stop()
	var wg, opened sync.WaitGroup
	defer wg.Wait()
	defer stop()
	for i := range 400 {
		wg.Add(1)
		opened.Add(1)
		go func() {
			defer wg.Done()
			var d net.Dialer
			first := true
			defer func() {
				if first {
					opened.Done()
				}
			}()
			for crowd.Err() == nil {
				c, err := d.DialContext(crowd, "tcp", addr)
				if err != nil {
					select {
					case <-crowd.Done():
						return
					case <-time.After(50 * time.Millisecond): // a client's retry
						continue
					}
				}
				go func() { <-crowd.Done(); c.Close() }()
				if i%4 != 3 { // three in four keep the connection after a request
					fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
					if r, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
						io.Copy(io.Discard, r.Body)
						r.Body.Close()
					}
				}
				if first {
					first = false
					opened.Done()
				}
				io.Copy(io.Discard, c) // idle until the host closes it
				c.Close()
				select {
				case <-crowd.Done():
					return
				case <-time.After(time.Second):
				}
			}
		}()
	}

	opened.Wait() // every one of the crowd has come once
	// A phone's page, through the crowd.
	client := &http.Client{Timeout: 20 * time.Second}
	resp, err := client.Get(page)
	if err != nil {
		t.Fatalf("a phone's request for the page, with the crowd idle: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a phone's request for the page: %d", resp.StatusCode)
	}
	// And a whole table: a phone with two bots of the host's.
	phone := newNativePhone(t, "phone", page)
	w, err := tablenet.AskBots(ctx, phone.client, tablenet.Wish{Table: "starved-" + tableName(t), Game: "corruption", Players: 3,
		Config: defaultConfig(t, "corruption"), Bots: 2, Escrow: true})
	if err != nil {
		t.Fatal(err)
	}
	out, rep, err := phone.sit(ctx, t, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Finished || !rep.Valid {
		t.Fatalf("the phone's table beside the crowd: finished %v; audit %+v", out.Finished, rep)
	}
	stop()
	logged := 0
	ls, _ := host.stderr.since(0)
	for _, l := range ls {
		if regexp.MustCompile(`phones: (closing idle connections|refused connections) from 127\.0\.0\.1`).MatchString(l) {
			logged++
		}
	}
	if logged < 1 || logged > 2 {
		t.Errorf("the host logged the crowd %d times, want once a minute (the test runs under two)", logged)
	}
}
