package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestChromiumFromEnvironment(t *testing.T) {
	p := filepath.Join(t.TempDir(), "chrome")
	if err := os.WriteFile(p, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CORRUPTION_CHROMIUM", p)
	for _, full := range []bool{false, true} {
		if got, err := Chromium(full); err != nil || got != p {
			t.Errorf("Chromium(%v) = %q, %v; want %q", full, got, err, p)
		}
	}
	t.Setenv("CORRUPTION_CHROMIUM", p+"-missing")
	if _, err := Chromium(false); err == nil || !strings.Contains(err.Error(), "CORRUPTION_CHROMIUM") {
		t.Errorf("a CORRUPTION_CHROMIUM that is not there: %v", err)
	}
}

func TestChromiumOrder(t *testing.T) {
	t.Setenv("CORRUPTION_CHROMIUM", "")
	_, shellErr := os.Stat(Shell)
	_, fullErr := os.Stat(Full)
	got, err := Chromium(false)
	switch {
	case shellErr == nil:
		if got != Shell {
			t.Errorf("with the shell installed: %q, %v", got, err)
		}
	case fullErr == nil:
		if got != Full {
			t.Errorf("with the full browser only: %q, %v", got, err)
		}
	default:
		if err == nil || !strings.Contains(err.Error(), "apt-get install") {
			t.Errorf("with no browser: %q, %v; want what to install", got, err)
		}
	}
	if fullErr == nil {
		if got, err := Chromium(true); got != Full {
			t.Errorf("Chromium(true) with the full browser installed: %q, %v", got, err)
		}
	}
}
