package tablenet_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// TestLayers holds the layering docs/ARCHITECTURE.md states to the import graph (every
// package's dependencies, its tests aside), so that it cannot drift:
//
//   - a game (engine/GAME and its packages) imports no cryptography, no network and not the
//     table kit: only engine;
//   - engine and crypto import nothing of the project but their own packages, and engine
//     nothing outside the standard library (no urfave/cli: a game's part of the command line,
//     engine/cmdkit, is said in the standard library's words);
//   - protocol and its packages import no game and no libp2p (the table kit knows games through
//     engine, the network through protocol.Network and tablenet.Node);
//   - p2p and its packages (the bridge among them) import no game and no page;
//   - tablenet imports no page, no libp2p and neither p2p nor the bridge (they implement its
//     Node);
//   - the bridge imports no libp2p (it builds for the browser);
//   - the shell (ui) imports no game.
func TestLayers(t *testing.T) {
	cmd := exec.Command("go", "list", "-json", "corruption/...")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkg struct {
		ImportPath string
		Deps       []string
	}
	var pkgs []pkg
	dec := json.NewDecoder(&out)
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	under := func(path, root string) bool { return path == root || strings.HasPrefix(path, root+"/") }
	games := []string{"corruption/engine/corruption", "corruption/engine/kingdoms", "corruption/engine/corruptia"}
	isGame := func(d string) bool {
		for _, g := range games {
			if under(d, g) {
				return true
			}
		}
		return false
	}
	libp2p := func(d string) bool {
		return strings.HasPrefix(d, "github.com/libp2p/") || strings.HasPrefix(d, "github.com/multiformats/")
	}
	project := func(d string) bool { return under(d, "corruption") }
	// A package outside the standard library and the project has a domain first: github.com/...
	thirdParty := func(d string) bool { return !project(d) && strings.Contains(strings.Split(d, "/")[0], ".") }
	rules := []struct {
		what   string
		of     func(string) bool // the packages the rule holds
		denies func(string) bool // the dependencies they may not have
	}{
		{"a game imports only engine of the project", isGame, func(d string) bool {
			return project(d) && !under(d, "corruption/engine")
		}},
		{"engine imports nothing of the project but engine", func(p string) bool { return under(p, "corruption/engine") && !isGame(p) },
			func(d string) bool { return project(d) && !under(d, "corruption/engine") }},
		{"engine imports only the standard library and engine", func(p string) bool { return under(p, "corruption/engine") }, thirdParty},
		{"crypto imports nothing of the project but crypto", func(p string) bool { return under(p, "corruption/crypto") },
			func(d string) bool { return project(d) && !under(d, "corruption/crypto") }},
		{"protocol imports no game and no libp2p", func(p string) bool { return under(p, "corruption/protocol") },
			func(d string) bool {
				return isGame(d) || libp2p(d) || under(d, "corruption/p2p") || under(d, "corruption/ui")
			}},
		{"p2p imports no game and no page", func(p string) bool { return under(p, "corruption/p2p") },
			func(d string) bool { return isGame(d) || under(d, "corruption/ui") }},
		{"tablenet imports no page, no libp2p, no transport", func(p string) bool { return under(p, "corruption/protocol/tablenet") },
			func(d string) bool { return under(d, "corruption/ui") || libp2p(d) || under(d, "corruption/p2p") }},
		{"the bridge imports no libp2p", func(p string) bool { return under(p, "corruption/p2p/bridge") },
			func(d string) bool { return libp2p(d) }},
		{"the shell imports no game", func(p string) bool { return p == "corruption/ui" }, isGame},
	}
	held := map[string]int{}
	for _, p := range pkgs {
		for _, r := range rules {
			if !r.of(p.ImportPath) {
				continue
			}
			held[r.what]++
			for _, d := range p.Deps {
				if r.denies(d) {
					t.Errorf("%s: %s imports %s", r.what, p.ImportPath, d)
				}
			}
		}
	}
	for _, r := range rules {
		if held[r.what] == 0 {
			t.Errorf("%s: no package of the tree is held to it (the tree moved?)", r.what)
		}
	}
}
