package main

// End-to-end tests of the corruption command. TestMain builds the binary once; every test runs
// it as a subprocess, as a player would, and looks only at its exit status and its output.
//
// Processes started in the background (network bots) run under a context with a deadline and
// are killed in t.Cleanup. Tests wait on what the processes print and on their exit, never on
// the clock.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// bin is the corruption binary built by TestMain, or given in CORRUPTION_BIN.
var bin string

// binEnv names a corruption binary already built for the tests (scripts/test.sh builds one for
// its two passes); without it, TestMain builds one.
const binEnv = "CORRUPTION_BIN"

func TestMain(m *testing.M) {
	code := testMain(m)
	stopBrowser() // the browser tests' shared Chromium, if one ran
	os.Exit(code)
}

func testMain(m *testing.M) int {
	if os.Getenv(netnsEnv) != "" {
		// The copy of the test binary that TestBotsWithMDNS runs inside a network namespace:
		// the binary is given to it, and it must not build anything.
		bin = os.Getenv(netnsEnv)
		return m.Run()
	}
	if b := os.Getenv(binEnv); b != "" {
		if _, err := os.Stat(b); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", binEnv, err)
			return 2
		}
		bin = b
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "corruption-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "corruption")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "corruption/cmd/corruption")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "cannot build the corruption command: %v\n", err)
		return 2
	}
	return m.Run()
}

// result is how one run of the command ended.
type result struct {
	args   []string
	code   int
	stdout string
	stderr string
}

func (r result) String() string {
	return fmt.Sprintf("corruption %s\nexit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
}

// commandTimeout bounds every command a test runs in the foreground.
const commandTimeout = 60 * time.Second

// corruption runs the command to its end and returns how it ended. A command that does not
// end within commandTimeout fails the test: it hangs.
func runCLI(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	r := result{args: args, stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("corruption %s hangs: still running after %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), commandTimeout, r.stdout, r.stderr)
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("corruption %s: %v", strings.Join(args, " "), err)
	}
	noPanic(t, r.args, r.stdout+r.stderr)
	return r
}

// noPanic fails the test if a command's output holds a Go panic or a goroutine dump.
func noPanic(t *testing.T, args []string, out string) {
	t.Helper()
	if strings.Contains(out, "panic:") || strings.Contains(out, "goroutine ") {
		t.Errorf("corruption %s printed a Go panic or goroutine trace:\n%s", strings.Join(args, " "), out)
	}
}

// proc is a corruption process running in the background.
type proc struct {
	name   string
	args   []string
	cmd    *exec.Cmd
	stdout lockedBuffer
	stderr lines
	done   chan struct{} // closed when the process has exited and its output is read
	err    error         // from Wait, once done is closed
}

// start starts the command in the background. It is killed at the end of the test if still
// running, and in any case by ctx's deadline.
func start(ctx context.Context, t *testing.T, name string, args ...string) *proc {
	t.Helper()
	return startCmd(t, name, exec.CommandContext(ctx, bin, args...))
}

func startCmd(t *testing.T, name string, cmd *exec.Cmd) *proc {
	t.Helper()
	p := &proc{name: name, args: cmd.Args[1:], cmd: cmd, done: make(chan struct{})}
	p.stderr.changed = make(chan struct{})
	cmd.Stdout, cmd.Stderr = &p.stdout, &p.stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: cannot start %s: %v", name, cmd.Path, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Kill()
			<-p.done
		}
		noPanic(t, p.args, p.stdout.String()+p.stderr.String())
		if t.Failed() {
			t.Logf("%s: corruption %s\nstdout:\n%s\nstderr:\n%s", p.name, strings.Join(p.args, " "), p.stdout.String(), p.stderr.String())
		}
	})
	return p
}

// waitLine waits until the process writes a stderr line matching re, and returns the line's
// submatches. It fails the test if the process exits first or the timeout passes.
func (p *proc) waitLine(t *testing.T, re *regexp.Regexp, timeout time.Duration) []string {
	t.Helper()
	return p.waitLineN(t, re, timeout, 1)
}

// waitLineN is waitLine's nth line matching re (n from 1).
func (p *proc) waitLineN(t *testing.T, re *regexp.Regexp, timeout time.Duration, n int) []string {
	t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	seen := 0
	for {
		ls, changed := p.stderr.since(seen)
		for _, l := range ls {
			if m := re.FindStringSubmatch(l); m != nil {
				if n--; n == 0 {
					return m
				}
			}
		}
		seen += len(ls)
		select {
		case <-changed:
		case <-p.done:
			// Look once more: the line may have come with the exit.
			if ls, _ := p.stderr.since(seen); len(ls) > 0 {
				continue
			}
			t.Fatalf("%s exited (%v) before writing a line matching %q\nstderr:\n%s", p.name, p.err, re, p.stderr.String())
		case <-timer.C:
			t.Fatalf("%s wrote no line matching %q within %v\nstderr:\n%s", p.name, re, timeout, p.stderr.String())
		}
	}
}

// wait waits for the process to exit and returns its exit status.
func (p *proc) wait(t *testing.T, timeout time.Duration) int {
	t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		t.Fatalf("%s still running after %v\nstderr:\n%s", p.name, timeout, p.stderr.String())
	}
	var ee *exec.ExitError
	switch {
	case p.err == nil:
		return 0
	case errors.As(p.err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	}
	t.Fatalf("%s: %v", p.name, p.err)
	return -1
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *proc) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatalf("%s: kill: %v", p.name, err)
	}
	<-p.done
}

// lockedBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lines collects what a process writes, line by line, and tells waiters when a line comes.
type lines struct {
	mu      sync.Mutex
	partial []byte
	done    []string
	all     bytes.Buffer
	changed chan struct{} // closed and replaced when a line is complete
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all.Write(p)
	l.partial = append(l.partial, p...)
	grew := false
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		l.done = append(l.done, string(l.partial[:i]))
		l.partial = l.partial[i+1:]
		grew = true
	}
	if grew {
		close(l.changed)
		l.changed = make(chan struct{})
	}
	return len(p), nil
}

// since returns the complete lines after the first n, and a channel closed when more come.
func (l *lines) since(n int) ([]string, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.done[n:]...), l.changed
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.all.String()
}
