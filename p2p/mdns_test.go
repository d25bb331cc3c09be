package p2p_test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"corruption/p2p"
)

// netnsEnv marks the copy of the test binary that runs inside the private
// network namespace made by TestMDNSDiscovery.
const netnsEnv = "P2P_TEST_IN_NETNS"

// TestMDNSDiscovery checks that nodes with no peer list find each other by
// mDNS and then gossip. mDNS multicasts on every interface, so the test
// re-runs itself inside a fresh network namespace (unshare -n) whose only
// interface is a loopback with multicast turned on.
func TestMDNSDiscovery(t *testing.T) {
	if os.Getenv(netnsEnv) == "1" {
		mdnsInNamespace(t)
		return
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: the mDNS test needs %q (util-linux, iproute2) to make a private network namespace", tool)
		}
	}
	if testing.Short() {
		t.Skip("skipping the mDNS namespace test in -short mode")
	}
	script := `ip link set lo up && ip link set lo multicast on || exit 97
exec "$0" -test.run '^TestMDNSDiscovery$' -test.count=1 -test.v -test.timeout=60s`
	cmd := exec.Command("unshare", "--net", "--", "sh", "-c", script, os.Args[0])
	cmd.Env = append(os.Environ(), netnsEnv+"=1")
	out, err := cmd.CombinedOutput()
	text := string(out)
	if err != nil {
		if strings.HasPrefix(text, "unshare:") && strings.Contains(text, "Operation not permitted") {
			t.Skipf("skipping: network namespaces are not allowed here (%s)", strings.TrimSpace(text))
		}
		t.Fatalf("mDNS test in a network namespace failed: %v\n%s", err, text)
	}
	if !strings.Contains(text, "--- PASS: TestMDNSDiscovery") {
		t.Fatalf("the namespaced run did not pass the test:\n%s", text)
	}
	t.Logf("namespaced run:\n%s", text)
}

func mdnsInNamespace(t *testing.T) {
	// Refuse to multicast anywhere but on a private loopback.
	ifaces, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagLoopback == 0 {
			t.Fatalf("interface %s is not a loopback: not in a private network namespace", ifc.Name)
		}
	}

	const k = 3
	nodes := make([]*p2p.Node, k)
	for i := range nodes {
		nodes[i] = newNode(t, p2p.Config{MDNS: true, ServiceTag: "corruption-test/1"})
	}
	for i, n := range nodes {
		var others []string
		for j, m := range nodes {
			if j != i {
				others = append(others, m.ID())
			}
		}
		waitFor(t, 20*time.Second, fmt.Sprintf("node %d to discover the others", i), func() bool {
			return connectedTo(n, others...)
		})
	}
	joinAll(t, nodes, "lobby", nil)
	if err := nodes[0].Publish(ctxTimeout(t, 5*time.Second), "lobby", []byte("found you")); err != nil {
		t.Fatal(err)
	}
	for i, n := range nodes[1:] {
		from, data, err := n.Next(ctxTimeout(t, 10*time.Second), "lobby")
		if err != nil || from != nodes[0].ID() || string(data) != "found you" {
			t.Errorf("node %d: Next: %s %q %v", i+1, from, data, err)
		}
	}
}
