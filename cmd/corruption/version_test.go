package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"corruption/p2p/bridge"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	"corruption/seat/web"
)

// TestVersion: --version names the release given at build time (scripts/release.sh), the
// protocol and the platform; a plain build says devel.
func TestVersion(t *testing.T) {
	t.Parallel()
	r := runCLI(t, "--version")
	want := "protocol: network 2, entries 5, bridge 3, " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + ", browser seat sha256 " + web.Digest()
	if r.code != 0 || !strings.HasPrefix(r.stdout, "corruption version ") || !strings.Contains(r.stdout, want) {
		t.Fatalf("--version: %v; want a line with %q", r, want)
	}
	// The numbers it prints are the ones the names and entries carry.
	if !strings.Contains(tablenet.ServiceTag, "-2") || !strings.HasPrefix(tablenet.TablePrefix, "corruption/2/") || tablenet.NetworkVersion != 2 || protocol.EntryVersion != 5 || bridge.Version != 3 {
		t.Errorf("--version's numbers drifted from the names: %s, %s, entries %d, bridge %d", tablenet.ServiceTag, tablenet.TablePrefix, protocol.EntryVersion, bridge.Version)
	}
	if testing.Short() {
		return
	}
	bin := filepath.Join(t.TempDir(), "corruption")
	build := exec.Command("go", "build", "-ldflags", "-X main.version=v9.8.7", "-o", bin, "corruption/cmd/corruption")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("build with a version: %v", err)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "corruption version v9.8.7") {
		t.Fatalf("a release build says %q (%v), want corruption version v9.8.7", out, err)
	}
}
