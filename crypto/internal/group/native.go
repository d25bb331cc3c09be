//go:build !wasm && !group32

package group

import "github.com/gtank/ristretto255"

// Element is an element of ristretto255; here github.com/gtank/ristretto255's. Its zero
// value is not a valid element: start from NewIdentityElement, NewGeneratorElement or a
// decoder.
type Element = ristretto255.Element

// Implementation names the implementation behind the seam, for tests and benchmarks.
const Implementation = "gtank/ristretto255 (64-bit limbs)"

// NewIdentityElement returns a new Element set to the identity.
func NewIdentityElement() *Element { return ristretto255.NewIdentityElement() }

// NewGeneratorElement returns a new Element set to the generator of RFC 9496.
func NewGeneratorElement() *Element { return ristretto255.NewGeneratorElement() }
