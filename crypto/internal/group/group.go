// Package group is crypto's one seam onto the prime-order group ristretto255 (RFC 9496):
// the element type Element, the scalar type Scalar and their constructors. Nothing else
// in crypto names an implementation.
//
// Two implementations sit behind the seam, chosen at build time in this package's files
// only:
//
//   - natively, github.com/gtank/ristretto255 on filippo.io/edwards25519, whose field
//     arithmetic multiplies 64-bit limbs into 128-bit products (bits.Mul64, one
//     instruction on amd64 and arm64);
//   - for GOARCH=wasm (or any build with the tag group32, which runs the same code
//     natively for tests and benchmarks), crypto/internal/ristretto32, whose field
//     elements have ten limbs of 26 and 25 bits so that every product fits 64 bits: Go's
//     WebAssembly has no 64×64→128 multiply and emulates bits.Mul64 with four 32-bit
//     products.
//
// Both have the same method set (that of ristretto255.Element) and write the same bytes;
// ristretto32's tests hold it to that against the native implementation. Beside the
// element, each gives a fixed base's table (Table, NewTable, BaseTable) and
// VarTimeTablesMult, a variable-time multiplication by tables, for checks of public proofs
// whose bases recur (the generator, a seat's key): ristretto32's in affine form, the native
// one of Elements summed with Element.Add, since gtank keeps its coordinates private.
//
// Scalars are ristretto255.Scalar (edwards25519's fiat-crypto Montgomery arithmetic) in
// both builds: a shuffle does a few hundred scalar operations against tens of thousands
// of field multiplications, so the field is where WebAssembly loses its time (the
// figures are in docs/PERFORMANCE.md, "Group arithmetic for WebAssembly").
package group

import "github.com/gtank/ristretto255"

// Scalar is an integer modulo the group order ℓ. Its zero value is zero.
type Scalar = ristretto255.Scalar

// NewScalar returns a new Scalar set to zero.
func NewScalar() *Scalar { return ristretto255.NewScalar() }
