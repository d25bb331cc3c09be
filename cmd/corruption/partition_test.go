package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A partition that heals, over real libp2p, between bot processes on a network the test builds
// for itself out of network namespaces and veth pairs.
//
// The test runs itself again under unshare, in new network and PID namespaces: "the switch",
// whose only interface at the start is loopback. Everything started in there dies with that run.
// In the switch, the hub (the first bot) listens on every interface. Each other bot runs in a
// network namespace of its own (unshare --net), joined to the switch by a veth pair on a /30 of
// its own: 10.77.N.1 is the switch's end, 10.77.N.2 the bot's. The bot's default route goes
// through the switch, which forwards between links, so the bots reach each other too once peer
// exchange has told them where. These addresses exist only inside the test's namespaces.
//
// Once the table has formed and the hub's log holds partitionAt entries, the switch's end of
// one bot's link goes down: that bot can reach no one and no one can reach it. After
// partitionFor the link comes back up, and the table must end as if nothing had happened.
const (
	partitionBots    = 4               // the hub and three bots, each on a link of its own
	partitionAt      = 30              // entries in the hub's log when the link is cut
	partitionFor     = 3 * time.Second // how long the link stays down
	partitionTimeout = "20s"           // the bots' --timeout: much longer than the cut
)

// outerNetnsEnv holds the network namespace of the run that starts the run in the switch, so
// that the latter can check it is somewhere else.
const outerNetnsEnv = "CORRUPTION_TEST_OUTER_NETNS"

// botInNetns is the shell that a bot's unshare --net runs: once in the new namespace it says
// so, waits for the test to move its end of the link in and say go, sets the link up and
// becomes the bot ("$0" "$@").
const botInNetns = `echo "namespace ready" >&2
read -r line || exit 97
ip link set lo up && ip addr add "$ADDR" dev "$LINK" && ip link set "$LINK" up && ip route add default via "$GW" || exit 97
exec "$0" "$@"`

func TestBotsPartitionHeals(t *testing.T) {
	t.Parallel()
	if os.Getenv(netnsEnv) != "" {
		partitionInNamespace(t)
		return
	}
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: the partition test needs %s (util-linux, iproute2) to make network namespaces of its own", tool)
		}
	}
	outer, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Skipf("skipping: cannot tell this process's network namespace: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout+15*time.Second)
	defer cancel()
	const inside = `ip link set lo up || { echo "ip: cannot set the namespace's loopback up" >&2; exit 97; }
exec "$0" -test.run='^TestBotsPartitionHeals$' -test.count=1 -test.v -test.timeout=70s`
	cmd := exec.CommandContext(ctx, "unshare", "--net", "--pid", "--fork", "--kill-child", "--", "sh", "-c", inside, os.Args[0])
	cmd.Env = append(os.Environ(), netnsEnv+"="+bin, outerNetnsEnv+"="+outer)
	cmd.WaitDelay = 5 * time.Second
	outb, err := cmd.CombinedOutput()
	out := string(outb)
	var ee *exec.ExitError
	switch {
	case err != nil && strings.HasPrefix(out, "unshare:") && (strings.Contains(out, "Operation not permitted") || strings.Contains(out, "Permission denied")):
		t.Skipf("skipping: unshare may not make network and PID namespaces here: %s", strings.TrimSpace(out))
	case errors.As(err, &ee) && ee.ExitCode() == 97:
		t.Skipf("skipping: ip may not configure a network namespace here:\n%s", out)
	case strings.Contains(out, "--- SKIP: TestBotsPartitionHeals"):
		t.Skipf("skipped inside the namespace:\n%s", out)
	case err != nil:
		t.Fatalf("the run inside the namespaces failed: %v\n%s", err, out)
	case !strings.Contains(out, "--- PASS: TestBotsPartitionHeals"):
		t.Fatalf("the run inside the namespaces did not pass:\n%s", out)
	}
	t.Logf("inside the namespaces:\n%s", out)
}

// link is one bot's veth pair.
type link struct {
	sw, bot   string // the interface in the switch, and the one moved into the bot's namespace
	swAddr    string // 10.77.N.1, the hub's address on the link
	botAddr   string // 10.77.N.2, the bot's
	prefixLen int
}

func partitionInNamespace(t *testing.T) {
	// Refuse to touch any network but one of the test's own.
	if os.Getpid() != 1 {
		t.Fatalf("running as pid %d, not as the first process of a PID namespace of its own: what it starts could outlive it", os.Getpid())
	}
	if here, err := os.Readlink("/proc/self/ns/net"); err != nil || here == os.Getenv(outerNetnsEnv) {
		t.Fatalf("network namespace %q (%v) is the one the test was started in, not one of its own", here, err)
	}
	ifaces, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagLoopback == 0 {
			t.Fatalf("interface %s is not a loopback: this is not a network namespace of the test's own", ifc.Name)
		}
	}
	// The switch forwards between links (net.* sysctls belong to the network namespace).
	if err := os.WriteFile("/proc/sys/net/ipv4/ip_forward", []byte("1\n"), 0o644); err != nil {
		t.Skipf("skipping: cannot turn on IPv4 forwarding in the test's network namespace: %v", err)
	}

	links := make([]link, partitionBots-1)
	for i := range links {
		n := i + 1
		l := link{sw: fmt.Sprintf("sw%d", n), bot: fmt.Sprintf("bot%d", n),
			swAddr: fmt.Sprintf("10.77.%d.1", n), botAddr: fmt.Sprintf("10.77.%d.2", n), prefixLen: 30}
		if err := ipCmd("link", "add", l.sw, "type", "veth", "peer", "name", l.bot); err != nil {
			if msg := err.Error(); strings.Contains(msg, "Operation not permitted") || strings.Contains(msg, "Unknown device type") || strings.Contains(msg, "not supported") {
				t.Skipf("skipping: veth pairs cannot be made here: %v", err)
			}
			t.Fatal(err)
		}
		mustIP(t, "addr", "add", fmt.Sprintf("%s/%d", l.swAddr, l.prefixLen), "dev", l.sw)
		mustIP(t, "link", "set", l.sw, "up")
		links[i] = l
	}

	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	table := tableName(t)
	ps := newPlayers(t, partitionBots)
	settings := []string{"--players", strconv.Itoa(partitionBots), "--timeout", partitionTimeout, "--verbose"}
	procs := make([]*proc, partitionBots)

	// The hub, on every interface of the switch: loopback and each link.
	procs[0] = start(ctx, t, ps[0].name, botArgs(table, ps[0], settings, "--no-mdns", "--listen", "/ip4/0.0.0.0/tcp/0")...)
	m := procs[0].waitLine(t, listenLine, 20*time.Second)
	hubPort, hubID := m[2], m[3]
	for _, l := range links {
		procs[0].waitLine(t, regexp.MustCompile(`^listening on /ip4/`+regexp.QuoteMeta(l.swAddr)+`/tcp/`+hubPort+`/p2p/`+hubID+`$`), 5*time.Second)
	}

	// The others, each in a namespace of its own at the end of its link, dialling the hub there.
	botPorts := make([]string, partitionBots)
	for i := 1; i < partitionBots; i++ {
		l := links[i-1]
		args := botArgs(table, ps[i], settings, "--no-mdns", "--listen", "/ip4/"+l.botAddr+"/tcp/0",
			"--peer", fmt.Sprintf("/ip4/%s/tcp/%s/p2p/%s", l.swAddr, hubPort, hubID))
		procs[i] = startInNetns(ctx, t, ps[i].name, l, args)
		botPorts[i] = procs[i].waitLine(t, regexp.MustCompile(`^listening on /ip4/`+regexp.QuoteMeta(l.botAddr)+`/tcp/(\d+)/p2p/\w+$`), 20*time.Second)[1]
	}

	formed := regexp.MustCompile(`table "` + regexp.QuoteMeta(table) + `" formed: seat \d of ` + strconv.Itoa(partitionBots))
	for _, p := range procs {
		p.waitLine(t, formed, 20*time.Second)
	}
	hubLog := filepath.Join(ps[0].data, "tables", table, "log")
	waitEntries(t, procs[0], hubLog, partitionAt, 20*time.Second)

	// Cut the last bot off.
	v := partitionBots - 1
	l := links[v-1]
	vLog := filepath.Join(ps[v].data, "tables", table, "log")
	mustIP(t, "link", "set", l.sw, "down")
	cut := time.Now()
	hubAtCut, vAtCut := countEntries(t, hubLog), countEntries(t, vLog)
	// The cut holds: from the switch, the bot's listener cannot be reached.
	if c, err := net.DialTimeout("tcp", net.JoinHostPort(l.botAddr, botPorts[v]), time.Second); err == nil {
		c.Close()
		t.Fatalf("%s's link is down, yet the switch still reaches it at %s", ps[v].name, c.RemoteAddr())
	} else {
		t.Logf("%s cut off (the switch dialling it: %v)", ps[v].name, err)
	}
	timer := time.NewTimer(partitionFor)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-procs[0].done:
		t.Fatalf("%s exited during the partition\nstderr:\n%s", procs[0].name, procs[0].stderr.String())
	case <-procs[v].done:
		t.Fatalf("%s exited during the partition\nstderr:\n%s", procs[v].name, procs[v].stderr.String())
	}

	// Heal it.
	mustIP(t, "link", "set", l.sw, "up")
	healed := time.Now()
	if !hasAddr(t, l.sw, l.swAddr) {
		t.Logf("%s lost its address while down: adding it again", l.sw)
		mustIP(t, "addr", "add", fmt.Sprintf("%s/%d", l.swAddr, l.prefixLen), "dev", l.sw)
	}
	hubAtHeal, vAtHeal := countEntries(t, hubLog), countEntries(t, vLog)
	t.Logf("%s's link down for %v: the hub's log went from %d to %d entries, %s's from %d to %d",
		ps[v].name, healed.Sub(cut).Round(time.Millisecond), hubAtCut, hubAtHeal, ps[v].name, vAtCut, vAtHeal)

	out, _ := finish(t, procs, ps, partitionBots)
	t.Logf("the table ended %v after the link came back up, with %d entries", time.Since(healed).Round(time.Millisecond), out.Entries)
	if hubAtHeal >= out.Entries {
		t.Errorf("the hub's log held %d entries of %d when the link came back up: the table did not wait for the seat cut off, so the cut partitioned nothing", hubAtHeal, out.Entries)
	}
}

// startInNetns starts a bot in a network namespace of its own and moves the bot's end of link
// l into it; the bot sets it up with its address and a default route through the switch.
func startInNetns(ctx context.Context, t *testing.T, name string, l link, args []string) *proc {
	t.Helper()
	cmd := exec.CommandContext(ctx, "unshare", append([]string{"--net", "--", "sh", "-c", botInNetns, bin}, args...)...)
	cmd.Env = append(os.Environ(), "LINK="+l.bot, fmt.Sprintf("ADDR=%s/%d", l.botAddr, l.prefixLen), "GW="+l.swAddr)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := startCmd(t, name, cmd)
	// unshare execs the shell in the new namespace: same process, so its pid names the namespace.
	p.waitLine(t, regexp.MustCompile(`^namespace ready$`), 10*time.Second)
	mustIP(t, "link", "set", l.bot, "netns", strconv.Itoa(cmd.Process.Pid))
	if _, err := io.WriteString(stdin, "go\n"); err != nil {
		t.Fatalf("%s: %v\nstderr:\n%s", name, err, p.stderr.String())
	}
	stdin.Close()
	return p
}

// ipCmd runs ip with args in the test's network namespace.
func ipCmd(args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ip", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

func mustIP(t *testing.T, args ...string) {
	t.Helper()
	if err := ipCmd(args...); err != nil {
		t.Fatal(err)
	}
}

// hasAddr says whether the interface named ifname has the IPv4 address addr.
func hasAddr(t *testing.T, ifname, addr string) bool {
	t.Helper()
	ifc, err := net.InterfaceByName(ifname)
	if err != nil {
		t.Fatal(err)
	}
	as, err := ifc.Addrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if n, ok := a.(*net.IPNet); ok && n.IP.String() == addr {
			return true
		}
	}
	return false
}
