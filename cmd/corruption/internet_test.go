package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A small internet, made of network namespaces the test makes itself: the test runs itself
// again under unshare in new network and PID namespaces, "the internet", where the relay runs
// on 11.99.0.1. Each home N is two namespaces: its router, joined to the internet by a veth pair
// (11.0.N.1 the internet's end, 11.0.N.2 the router's public address) and masquerading (nftables)
// everything that leaves by it, and its player, joined to the router by another pair on
// 192.168.N.0/24. Nobody can dial a player: the internet has no route to a home's LAN, and a
// router forwards in only what answers its player's own connections. The players know only the
// relay; they form a private table by its join code, play it through the relay (and through
// whatever hole punching opens), and the test reports which pairs ended direct and which
// relayed.
//
// The addresses look public (11.0.0.0/8) because go-libp2p punches holes only towards public
// addresses; they exist only inside the test's namespaces, and nothing is ever sent anywhere
// else. Everything started in there dies with the PID namespace.
const internetHomes = 3

const internetEnv = "CORRUPTION_TEST_INTERNET"

// relayIP is the relay's address on the internet.
const relayIP = "11.99.0.1"

// routerInNetns is the shell a home's router runs in its new namespace: it says so, waits for
// its two ends of link, configures them, forwards and masquerades, and stays until killed. Like
// a home router, it forwards in only what answers its player's connections, and drops (rather
// than refuses) what comes unasked to its own address, so that the first packet of a hole
// punch that arrives early is lost and retried, not answered with a reset. With STRICT set it
// also drops everything from anyone but the relay: no hole can be punched.
const routerInNetns = `echo "namespace ready" >&2
read -r line || exit 97
ip link set lo up && ip link set "$WAN" up && ip link set "$LAN" up &&
ip addr add "$WANADDR" dev "$WAN" && ip addr add "$LANADDR" dev "$LAN" && ip route add default via "$GW" &&
echo 1 > /proc/sys/net/ipv4/ip_forward &&
nft add table ip nat && nft add chain ip nat post '{ type nat hook postrouting priority 100; }' &&
nft add rule ip nat post oifname "$WAN" masquerade &&
nft add table ip filter && nft add chain ip filter through '{ type filter hook forward priority 0; policy drop; }' &&
nft add rule ip filter through iifname "$LAN" accept &&
{ [ -z "$STRICT" ] || nft add rule ip filter through iifname "$WAN" ip saddr != "$RELAY" drop; } &&
nft add rule ip filter through ct state established,related accept &&
nft add chain ip filter inbound '{ type filter hook input priority 0; policy accept; }' &&
nft add rule ip filter inbound iifname "$WAN" ct state new drop || exit 97
echo "router up" >&2
exec sleep 3600`

func TestPrivateTableAcrossNATs(t *testing.T) {
	if os.Getenv(internetEnv) != "" {
		internetInNamespace(t)
		return
	}
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	for _, tool := range []string{"unshare", "ip", "nft"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: the internet test needs %s (util-linux, iproute2, nftables) to make network namespaces and NATs of its own", tool)
		}
	}
	outer, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Skipf("skipping: cannot tell this process's network namespace: %v", err)
	}
	for _, strict := range []bool{false, true} {
		name := "punch"
		if strict {
			name = "relay-only"
		}
		t.Run(name, func(t *testing.T) { runInternet(t, outer, strict) })
	}
}

// runInternet runs the test again inside the namespaces; strict routers let no hole be punched.
func runInternet(t *testing.T, outer string, strict bool) {
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout+30*time.Second)
	defer cancel()
	const inside = `ip link set lo up || { echo "ip: cannot set the namespace's loopback up" >&2; exit 97; }
exec "$0" -test.run='^TestPrivateTableAcrossNATs$' -test.count=1 -test.v -test.timeout=85s`
	cmd := exec.CommandContext(ctx, "unshare", "--net", "--pid", "--fork", "--kill-child", "--", "sh", "-c", inside, os.Args[0])
	cmd.Env = append(os.Environ(), netnsEnv+"="+bin, internetEnv+"=1", outerNetnsEnv+"="+outer)
	if strict {
		cmd.Env = append(cmd.Env, "STRICT=1")
	}
	cmd.WaitDelay = 5 * time.Second
	outb, err := cmd.CombinedOutput()
	out := string(outb)
	var ee *exec.ExitError
	switch {
	case err != nil && strings.HasPrefix(out, "unshare:") && (strings.Contains(out, "Operation not permitted") || strings.Contains(out, "Permission denied")):
		t.Skipf("skipping: unshare may not make network and PID namespaces here: %s", strings.TrimSpace(out))
	case errors.As(err, &ee) && ee.ExitCode() == 97:
		t.Skipf("skipping: ip may not configure a network namespace here:\n%s", out)
	case strings.Contains(out, "--- SKIP: TestPrivateTableAcrossNATs"):
		t.Skipf("skipped inside the namespaces:\n%s", out)
	case err != nil:
		t.Fatalf("the run inside the namespaces failed: %v\n%s", err, out)
	case !strings.Contains(out, "--- PASS: TestPrivateTableAcrossNATs"):
		t.Fatalf("the run inside the namespaces did not pass:\n%s", out)
	}
	t.Logf("inside the namespaces:\n%s", out)
}

func internetInNamespace(t *testing.T) {
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
	if err := os.WriteFile("/proc/sys/net/ipv4/ip_forward", []byte("1\n"), 0o644); err != nil {
		t.Skipf("skipping: cannot turn on IPv4 forwarding in the test's network namespace: %v", err)
	}
	mustIP(t, "addr", "add", relayIP+"/32", "dev", "lo")

	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	began := time.Now()
	relay := start(ctx, t, "relay", "relay", "--listen", "/ip4/"+relayIP+"/tcp/0", "--verbose")
	raddr := relay.waitLine(t, regexp.MustCompile(`^relay at (/ip4/`+regexp.QuoteMeta(relayIP)+`/tcp/\d+/p2p/\w+)$`), 20*time.Second)[1]

	// The homes: a router and a player's link each.
	players := make([]link, internetHomes)
	for i := range internetHomes {
		n := i + 1
		wan, rwan := fmt.Sprintf("inet%d", n), fmt.Sprintf("wan%d", n)
		lan, plan := fmt.Sprintf("lan%d", n), fmt.Sprintf("home%d", n)
		for _, pair := range [][2]string{{wan, rwan}, {lan, plan}} {
			if err := ipCmd("link", "add", pair[0], "type", "veth", "peer", "name", pair[1]); err != nil {
				if msg := err.Error(); strings.Contains(msg, "Operation not permitted") || strings.Contains(msg, "not supported") {
					t.Skipf("skipping: veth pairs cannot be made here: %v", err)
				}
				t.Fatal(err)
			}
		}
		mustIP(t, "addr", "add", fmt.Sprintf("11.0.%d.1/30", n), "dev", wan)
		mustIP(t, "link", "set", wan, "up")
		startRouter(ctx, t, n, rwan, lan)
		players[i] = link{bot: plan, botAddr: fmt.Sprintf("192.168.%d.2", n), swAddr: fmt.Sprintf("192.168.%d.1", n), prefixLen: 24}
	}
	// The internet reaches no home's LAN: the isolation the NATs stand for.
	if c, err := net.DialTimeout("tcp", "192.168.1.2:1", time.Second); err == nil {
		c.Close()
		t.Fatal("the internet reaches a home's LAN")
	}

	ps := newPlayers(t, internetHomes)
	args := func(i int, extra ...string) []string {
		a := []string{"bot", "--data", ps[i].data, "--out", ps[i].log, "--json", "--timeout", "30s", "--verbose",
			"--no-mdns", "--listen", "/ip4/" + players[i].botAddr + "/tcp/0", "--relay", raddr}
		return append(a, extra...)
	}
	procs := []*proc{startInNetns(ctx, t, ps[0].name, players[0], args(0, "--private", "--players", strconv.Itoa(internetHomes)))}
	code := procs[0].waitLine(t, joinCodeLine, 20*time.Second)[1]
	for i := 1; i < internetHomes; i++ {
		procs = append(procs, startInNetns(ctx, t, ps[i].name, players[i], args(i, "--join", code)))
	}
	ids := make([]string, internetHomes)
	for i, p := range procs {
		ids[i] = p.waitLine(t, regexp.MustCompile(`^listening on /ip4/`+regexp.QuoteMeta(players[i].botAddr)+`/tcp/\d+/p2p/(\w+)$`), 20*time.Second)[1]
	}
	formed := regexp.MustCompile(`table "private-\w+" formed: seat \d of `)
	for _, p := range procs {
		p.waitLine(t, formed, 30*time.Second)
	}
	formedIn := time.Since(began)
	out, _ := finish(t, procs, ps, internetHomes)
	played := time.Since(began) - formedIn
	t.Logf("a private table of %d players behind %d NATs, through a relay: formed %v after the relay started; then %d entries in %v (%v an entry), to the last exit",
		internetHomes, internetHomes, formedIn.Round(time.Millisecond), out.Entries, played.Round(time.Millisecond),
		(played / time.Duration(out.Entries)).Round(10*time.Microsecond))
	direct, relayed := 0, 0
	for i, p := range procs {
		for j := i + 1; j < internetHomes; j++ {
			m := regexp.MustCompile(`the connection to ` + ids[j] + ` is (\w+)`).FindStringSubmatch(p.stderr.String())
			switch {
			case m == nil:
				t.Logf("%s and %s: no connection at the end", ps[i].name, ps[j].name)
			case m[1] == "direct":
				direct++
				t.Logf("%s and %s: direct (a hole was punched)", ps[i].name, ps[j].name)
			default:
				relayed++
				t.Logf("%s and %s: %s", ps[i].name, ps[j].name, m[1])
			}
		}
	}
	t.Logf("pairs at the end: %d direct, %d relayed", direct, relayed)
	if os.Getenv("STRICT") != "" && direct > 0 {
		t.Errorf("%d pairs ended direct behind routers that let nobody but the relay in", direct)
	}
}

// startRouter starts home n's router in a namespace of its own, with its ends of the WAN and
// LAN links moved in, and waits for it to route.
func startRouter(ctx context.Context, t *testing.T, n int, wan, lan string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "unshare", "--net", "--", "sh", "-c", routerInNetns)
	cmd.Env = append(os.Environ(), "RELAY="+relayIP, "WAN="+wan, "LAN="+lan, fmt.Sprintf("WANADDR=11.0.%d.2/30", n),
		fmt.Sprintf("LANADDR=192.168.%d.1/24", n), fmt.Sprintf("GW=11.0.%d.1", n))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := startCmd(t, fmt.Sprintf("router %d", n), cmd)
	p.waitLine(t, regexp.MustCompile(`^namespace ready$`), 10*time.Second)
	pid := strconv.Itoa(cmd.Process.Pid)
	mustIP(t, "link", "set", wan, "netns", pid)
	mustIP(t, "link", "set", lan, "netns", pid)
	if _, err := io.WriteString(stdin, "go\n"); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	p.waitLine(t, regexp.MustCompile(`^router up$`), 10*time.Second)
}
