package ui

import (
	"bytes"
	"context"
	"net/http"
	"strings"
)

// The page's API in process. The page's shell and boards talk to their seat through one
// module, api.js, over one of two transports: HTTP to the laptop's loopback server (Handler,
// behind a listener), or in process, when the seat runs in the same page (the browser seat,
// compiled to WebAssembly). In process, the very same Handler answers: InProcess hands it each
// request as the HTTP transport would send it, and streams its server-sent events to a
// callback, with no listener, no socket and no cookie.
//
// What it promises: a request through InProcess gets the status and body the same request
// over HTTP with the session key gets (the key and the host checks pass as for the page's own
// requests); Subscribe calls its callback once per event, in order, with the event's name and
// data, as an EventSource would dispatch them, and returns when its context ends or the stream
// does (the server closed). It is safe for concurrent use.

// InProcess drives a page's API in the process that holds it.
type InProcess struct {
	h   http.Handler
	key string
}

// NewInProcess drives s's Handler in process, with s's session key.
func NewInProcess(s *Server) *InProcess { return &InProcess{h: s.Handler(), key: s.cfg.Key} }

// request is method path (with its query) as the page sends it: the session key in its
// header, the page's own host, a JSON body.
func (c *InProcess) request(ctx context.Context, method, path string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, "http://localhost"+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Corruption-Key", c.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// Do answers one request: method, path ("/api/move?lang=fr") and JSON body (nil for none).
// It returns the status and the answer's body; a path that is not one makes a 400.
func (c *InProcess) Do(ctx context.Context, method, path string, body []byte) (int, []byte) {
	req, err := c.request(ctx, method, path, body)
	if err != nil {
		return http.StatusBadRequest, []byte(`{"error":"not a request: ` + strings.ReplaceAll(err.Error(), `"`, `'`) + `"}`)
	}
	w := &recorder{header: http.Header{}}
	c.h.ServeHTTP(w, req)
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.code, w.body.Bytes()
}

// Subscribe opens the event stream at path ("/api/events?lang=es") and calls on with each
// event's name and data until ctx ends or the server ends the stream. A refused stream is not
// one: Subscribe then returns its status and body at once, without calling on; else it
// returns 200 once the stream is over.
func (c *InProcess) Subscribe(ctx context.Context, path string, on func(event string, data []byte)) (int, []byte) {
	req, err := c.request(ctx, http.MethodGet, path, nil)
	if err != nil {
		return http.StatusBadRequest, []byte(`{"error":"not a request"}`)
	}
	w := &recorder{header: http.Header{}, on: on}
	c.h.ServeHTTP(w, req)
	if w.code != 0 && w.code != http.StatusOK {
		return w.code, w.body.Bytes()
	}
	return http.StatusOK, nil
}

// recorder is the handler's ResponseWriter in process. With on set, once the handler answers
// 200 as an event stream, every Flush hands on the complete events written so far.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
	on     func(event string, data []byte)
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *recorder) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

// Flush dispatches the events written so far (each ends with a blank line).
func (w *recorder) Flush() {
	if w.on == nil || w.code != http.StatusOK || !strings.HasPrefix(w.header.Get("Content-Type"), "text/event-stream") {
		return
	}
	for {
		buf := w.body.Bytes()
		end := bytes.Index(buf, []byte("\n\n"))
		if end < 0 {
			return
		}
		frame := string(buf[:end])
		w.body.Next(end + 2)
		event, data := "message", []string(nil)
		for _, line := range strings.Split(frame, "\n") {
			switch {
			case strings.HasPrefix(line, ":"): // a comment (the stream's ping)
			case strings.HasPrefix(line, "event: "):
				event = line[len("event: "):]
			case strings.HasPrefix(line, "data: "):
				data = append(data, line[len("data: "):])
			}
		}
		if data != nil {
			w.on(event, []byte(strings.Join(data, "\n")))
		}
	}
}
