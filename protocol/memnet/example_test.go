package memnet_test

import (
	"context"
	"fmt"

	"corruption/protocol/memnet"
)

func Example() {
	net := memnet.New(1, memnet.Faults{}) // a perfect network; try Faults{Drop: 0.1, MaxDelay: ...}
	defer net.Close()
	alice, bob, carol := net.Node("alice"), net.Node("bob"), net.Node("carol")
	bob.Serve(func(from string, req []byte) ([]byte, error) {
		return fmt.Appendf(nil, "bob answers %s: %s", from, req), nil
	})

	ctx := context.Background()
	alice.Publish(ctx, []byte("deal"))
	from, data, _ := carol.Next(ctx)
	fmt.Printf("carol got %q from %s\n", data, from)

	net.Partition([]string{"alice", "bob"}, []string{"carol"})
	fmt.Println("alice reaches", alice.Peers())
	resp, _ := alice.Request(ctx, "bob", []byte("missed moves?"))
	fmt.Println(string(resp))
	_, err := alice.Request(ctx, "carol", nil)
	fmt.Println(err)
	// Output:
	// carol got "deal" from alice
	// alice reaches [bob]
	// bob answers alice: missed moves?
	// memnet: request to carol: peer unreachable
}
