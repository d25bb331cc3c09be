package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"corruption/p2p/bridge"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	"corruption/seat/web"
)

// version is the release's version, set when building a release (scripts/release.sh):
//
//	go build -ldflags "-X main.version=v2.1.0" ./cmd/corruption
//
// Without it, corruption --version says what the Go toolchain recorded of the build: the
// module's version or the commit it was built from.
var version = ""

// versionString is what corruption --version prints after the command's name: the version,
// the protocol's versions (the network's, in its topics and mDNS service; the entries'; the
// phones' bridge's), the platform, and the digest of the browser seat's .wasm that it serves phones
// (seat/web.Digest, as the release's SHA256SUMS lists it).
func versionString() string {
	v, commit, dirty := version, "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "devel"
	}
	s := v
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		if dirty {
			commit += ", modified"
		}
		s += " (commit " + commit + ")"
	}
	return fmt.Sprintf("%s, protocol: network %d, entries %d, bridge %d, %s %s/%s, browser seat sha256 %s", s, tablenet.NetworkVersion,
		protocol.EntryVersion, bridge.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH, web.Digest())
}
