//go:build js && wasm

package browserstore

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"syscall/js"

	"corruption/protocol"
)

var (
	opsOnce sync.Once
	ops     js.Value
	opsErr  error
)

// theOps is the JavaScript half (idb.js, Script), which the page loaded.
func theOps() (js.Value, error) {
	opsOnce.Do(func() {
		switch {
		case js.Global().Get("indexedDB").IsUndefined():
			opsErr = errors.New("this browser has no IndexedDB: the seat cannot keep its keys and log")
		case js.Global().Get("corruptionIDB").IsUndefined():
			opsErr = errors.New("the page did not load the seat's storage script (idb.js)")
		default:
			ops = js.Global().Get("corruptionIDB")
		}
	})
	return ops, opsErr
}

// await waits for a Promise (never call it on the browser's event goroutine: from a callback,
// start a goroutine).
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	ok := js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ch <- result{v: v}
		return nil
	})
	fail := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "failed"
		if len(args) > 0 {
			if m := args[0].Get("message"); m.Type() == js.TypeString {
				msg = m.String()
			} else {
				msg = args[0].Call("toString").String()
			}
		}
		ch <- result{err: errors.New(msg)}
		return nil
	})
	defer ok.Release()
	defer fail.Release()
	p.Call("then", ok, fail)
	r := <-ch
	return r.v, r.err
}

// call runs one operation of idb.js and waits for it.
func call(op string, args ...any) (js.Value, error) {
	o, err := theOps()
	if err != nil {
		return js.Undefined(), err
	}
	return await(o.Call(op, args...))
}

func toJS(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

func fromJS(v js.Value) []byte {
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

// Backend is one seat's files in the browser's IndexedDB: a protocol.Backend.
type Backend struct {
	seat  string
	mu    sync.Mutex
	token string // the tab's hold on the seat ("" when not held)
	ask   js.Value
}

// Seat is the seat's id, under which its files are kept.
func (b *Backend) Seat() string { return b.seat }

func (b *Backend) Path(name string) string {
	return fmt.Sprintf("the browser's storage of seat %s: %s", b.seat, name)
}

func (b *Backend) held() (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.token == "" {
		return "", fmt.Errorf("seat %s: the seat is not held by this tab: %w", b.seat, protocol.ErrLocked)
	}
	return b.token, nil
}

// werr turns the JavaScript half's errors into the Backend's.
func (b *Backend) werr(op, name string, err error) error {
	switch {
	case err == nil:
		return nil
	case err.Error() == "stolen":
		b.mu.Lock()
		b.token = ""
		b.mu.Unlock()
		return fmt.Errorf("seat %s: the seat was opened in another tab of this browser: %w", b.seat, protocol.ErrLocked)
	case err.Error() == "missing":
		return &fs.PathError{Op: op, Path: b.Path(name), Err: fs.ErrNotExist}
	}
	return &fs.PathError{Op: op, Path: b.Path(name), Err: err}
}

func (b *Backend) ReadFile(name string) ([]byte, error) {
	if err := protocol.CheckFileName(name); err != nil {
		return nil, err
	}
	v, err := call("read", b.seat, name)
	if err != nil {
		return nil, b.werr("read", name, err)
	}
	if v.IsNull() {
		return nil, &fs.PathError{Op: "read", Path: b.Path(name), Err: fs.ErrNotExist}
	}
	return fromJS(v), nil
}

func (b *Backend) WriteFile(name string, data []byte) error {
	if err := protocol.CheckFileName(name); err != nil {
		return err
	}
	tok, err := b.held()
	if err != nil {
		return err
	}
	_, err = call("write", b.seat, tok, name, toJS(data))
	return b.werr("write", name, err)
}

func (b *Backend) OpenAppend(name string) (protocol.Appender, error) {
	if err := protocol.CheckFileName(name); err != nil {
		return nil, err
	}
	if _, err := b.held(); err != nil {
		return nil, err
	}
	v, err := call("stat", b.seat, name)
	if err != nil {
		return nil, b.werr("open", name, err)
	}
	return &appender{b: b, name: name, chunks: v.Index(0).Int(), size: int64(v.Index(1).Int())}, nil
}

func (b *Backend) Rename(from, to string) error {
	if err := protocol.CheckFileName(from); err != nil {
		return err
	}
	if err := protocol.CheckFileName(to); err != nil {
		return err
	}
	tok, err := b.held()
	if err != nil {
		return err
	}
	_, err = call("rename", b.seat, tok, from, to)
	return b.werr("rename", from, err)
}

func (b *Backend) Remove(name string) error {
	if err := protocol.CheckFileName(name); err != nil {
		return err
	}
	tok, err := b.held()
	if err != nil {
		return err
	}
	_, err = call("remove", b.seat, tok, name)
	return b.werr("remove", name, err)
}

func (b *Backend) List(dir string) ([]string, error) {
	prefix := ""
	if dir != "" {
		if err := protocol.CheckFileName(dir); err != nil {
			return nil, err
		}
		prefix = dir + "/"
	}
	v, err := call("list", b.seat, prefix)
	if err != nil {
		return nil, b.werr("list", dir, err)
	}
	seen := map[string]bool{}
	var out []string
	for i := range v.Length() {
		rest := strings.TrimPrefix(v.Index(i).String(), prefix)
		first, _, _ := strings.Cut(rest, "/")
		if first != "" && !seen[first] {
			seen[first] = true
			out = append(out, first)
		}
	}
	sort.Strings(out)
	return out, nil
}

// appender appends chunks to one file; it counts the file's chunks, which only the holder of
// the seat adds to.
//
// An append with sync is waited for, as the other calls are. One without (the entries a node
// receives, its chat) is not: the node goes on while IndexedDB commits it (on a phone at a
// table of seven, waiting for each cost a fifth of the table's time: docs/PERFORMANCE.md).
// It loses nothing that waiting gave: each append is in a transaction made at the call (or in
// the one of the appends just before it, a burst, while that one has not begun and no other
// call came between), and IndexedDB runs the transactions of a store in the order they were
// made, so every later call of the backend (a read, the log written anew at a cut, the seat
// given up) comes after it; an append checks
// that the chunk before it is there, so none lands after one that failed and the file has no
// hole; the first failure is returned by the appender's next call, and by every one after it.
type appender struct {
	b      *Backend
	name   string
	chunks int
	size   int64
	later  bool  // appends not waited for were made
	err    error // the first append that failed
}

func (a *appender) Size() (int64, error) {
	if err := a.failed(); err != nil {
		return 0, err
	}
	return a.size, nil
}

// failed is the first failed append's error, asking the JavaScript half about those not waited
// for.
func (a *appender) failed() error {
	if a.err != nil || !a.later {
		return a.err
	}
	o, err := theOps()
	if err != nil {
		return err
	}
	if m := o.Call("failure", a.b.seat, a.name); m.Type() == js.TypeString {
		a.err = a.b.werr("append", a.name, errors.New(m.String()))
	}
	return a.err
}

func (a *appender) Append(p []byte, sync bool) error {
	if err := a.failed(); err != nil {
		return err
	}
	tok, err := a.b.held()
	if err != nil {
		return err
	}
	if sync {
		if _, err := call("append", a.b.seat, tok, a.name, a.chunks, toJS(p), true); err != nil {
			if ferr := a.failed(); ferr != nil {
				return ferr // an append before this one failed first
			}
			a.err = a.b.werr("append", a.name, err)
			return a.err
		}
	} else {
		o, err := theOps()
		if err != nil {
			return err
		}
		o.Call("appendLater", a.b.seat, tok, a.name, a.chunks, toJS(p))
		a.later = true
	}
	a.chunks++
	a.size += int64(len(p))
	return nil
}

// Close waits for the appends not waited for, and returns the first failure.
func (a *appender) Close() error {
	if !a.later {
		return a.err
	}
	a.later = false
	m, err := call("settle", a.b.seat, a.name)
	switch {
	case a.err != nil:
	case err != nil:
		a.err = a.b.werr("append", a.name, err)
	case m.Type() == js.TypeString:
		a.err = a.b.werr("append", a.name, errors.New(m.String()))
	}
	return a.err
}

var _ protocol.Backend = (*Backend)(nil)
