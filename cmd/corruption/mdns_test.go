package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// netnsEnv marks the copy of the test binary that TestBotsWithMDNS runs inside a network
// namespace; its value is the path of the corruption binary.
const netnsEnv = "CORRUPTION_TEST_NETNS_BIN"

// TestBotsWithMDNS: three bots with neither --no-mdns nor --peer find each other by mDNS and
// play a table. mDNS multicasts on every interface, so the test runs itself again inside new
// network and PID namespaces (unshare), whose only interface is a loopback with multicast on.
// When the outer run ends, the PID namespace takes every process started in it down.
func TestBotsWithMDNS(t *testing.T) {
	if os.Getenv(netnsEnv) != "" {
		botsWithMDNSInNamespace(t)
		return
	}
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: the mDNS test needs %s (util-linux, iproute2) to make a network namespace of its own", tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout+10*time.Second)
	defer cancel()
	const inside = `ip link set lo up && ip link set lo multicast on || exit 97
exec "$0" -test.run='^TestBotsWithMDNS$' -test.count=1 -test.v -test.timeout=90s`
	cmd := exec.CommandContext(ctx, "unshare", "--net", "--pid", "--fork", "--kill-child", "--", "sh", "-c", inside, os.Args[0])
	cmd.Env = append(os.Environ(), netnsEnv+"="+bin)
	cmd.WaitDelay = 5 * time.Second
	outb, err := cmd.CombinedOutput()
	out := string(outb)
	if err != nil {
		if strings.HasPrefix(out, "unshare:") && (strings.Contains(out, "Operation not permitted") || strings.Contains(out, "Permission denied")) {
			t.Skipf("skipping: network namespaces are not allowed here: %s", strings.TrimSpace(out))
		}
		t.Fatalf("the run inside a network namespace failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, "--- PASS: TestBotsWithMDNS") || strings.Contains(out, "--- SKIP") {
		t.Fatalf("the run inside a network namespace did not pass:\n%s", out)
	}
	t.Logf("inside the namespace:\n%s", out)
}

func botsWithMDNSInNamespace(t *testing.T) {
	// Multicast nowhere but on a private loopback.
	ifaces, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagLoopback == 0 {
			t.Fatalf("interface %s is not a loopback: this is not a network namespace of the test's own", ifc.Name)
		}
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagMulticast == 0 {
			t.Fatalf("interface %s is not up with multicast on (%v)", ifc.Name, ifc.Flags)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	table := tableName(t)
	ps := newPlayers(t, 3)
	procs := make([]*proc, len(ps))
	for i, p := range ps {
		procs[i] = start(ctx, t, p.name, botArgs(table, p, []string{"--players", "3", "--verbose"},
			"--listen", "/ip4/127.0.0.1/tcp/0")...)
	}
	finish(t, procs, ps, 3)
	for _, p := range procs {
		if !strings.Contains(p.stderr.String(), "by mDNS") {
			t.Errorf("%s found no peer by mDNS:\n%s", p.name, p.stderr.String())
		}
	}
}
