// Package browsertest finds the Chromium the browser tests drive (cmd/corruption's and
// seat/web's end-to-end tests, and seat/web's figure tools).
//
// The tests take Debian's chromium-headless-shell when it is installed: Chromium's own build
// for headless use, the same Blink, V8 and WebAssembly as the browser, without the browser's
// user interface. The full browser in its headless mode draws that interface for every window
// (a renderer of its own a window: about 1.5 CPU-s each) and cost the test command's browser
// tests about a fifth more CPU (docs/PERFORMANCE.md, "The test command"). The figure tools,
// which stand in for a phone's browser, take the full browser.
package browsertest

import (
	"fmt"
	"os"
	"testing"
)

const (
	// Shell is Debian's chromium-headless-shell.
	Shell = "/usr/bin/chromium-headless-shell"
	// Full is Debian's chromium, the whole browser.
	Full = "/usr/bin/chromium"
)

// Chromium is the browser to drive: $CORRUPTION_CHROMIUM when set, else the headless shell
// when installed, else the full browser (the full browser first when full is set). Its error
// says what to install.
func Chromium(full bool) (string, error) {
	if p := os.Getenv("CORRUPTION_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("CORRUPTION_CHROMIUM=%s: %w", p, err)
		}
		return p, nil
	}
	order := []string{Shell, Full}
	if full {
		order = []string{Full, Shell}
	}
	for _, p := range order {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("the browser tests need Debian's chromium-headless-shell (%s) or chromium (%s): apt-get install chromium-headless-shell chromium", Shell, Full)
}

// Need is Chromium(full) for a test that drives it: without one, the test fails when CI=true
// (the test command installs it) and is skipped elsewhere.
func Need(t testing.TB, full bool) string {
	t.Helper()
	p, err := Chromium(full)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return p
}
