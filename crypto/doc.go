// Package crypto is the cryptography of a serverless card table: it lets players who
// trust nobody deal from a deck that nobody, not even the last to shuffle, can see or
// arrange, keep cards face down and open them later, draw joint random numbers, and
// send one another private answers, with every step checkable by anyone from the
// public log alone.
//
// It promises:
//
//   - Group: ristretto255 (RFC 9496) as implemented by github.com/gtank/ristretto255
//     over filippo.io/edwards25519, a group of prime order ℓ with canonical encodings,
//     so no decoded point carries a torsion component and no element has two
//     encodings. Card points and extra generators come from the RFC 9496 hash-to-group
//     with fixed labels; nobody knows their discrete logarithms.
//   - Every Fiat–Shamir challenge hashes a domain label, the Context (table id, roster,
//     step), the author's seat and the whole statement: a proof replayed under another
//     table, step or seat fails.
//   - Decoders (ParseXxx, Point.SetBytes) accept only canonical encodings: exact
//     lengths, scalars below ℓ, canonical points, no identity where it has no business.
//     Whatever they accept encodes back to the same bytes. They never panic.
//   - Every function is safe for concurrent use; values are immutable once built.
//   - Randomness always comes from an io.Reader, so tests are repeatable. Shuffle and
//     Seal read 32 bytes from it and derive every secret from those bytes and the whole
//     statement (derive.go): the same bytes used twice for different decks or messages
//     give unrelated secrets, and for the same statement the same output.
//   - Secret scalars are handled in constant time, the shuffle's permutation with
//     constant-time selections, and DecodeCard compares a (possibly private) card
//     point with every card in constant time; verification, which sees public data
//     only, uses variable-time arithmetic.
//
// The constructions, in the order a game uses them:
//
//   - ProveKey / VerifyKey / JointKey: ElGamal keys with Schnorr proofs of knowledge;
//     the joint key is the sum of verified keys (no rogue keys).
//   - CanonicalDeck / CanonicalCard / Shuffle / VerifyShuffle: the deck of card points encrypted with
//     randomness zero, then permuted and re-encrypted by each player in turn, with a
//     Terelius–Wikström proof of shuffle (see shuffle.go).
//   - DecryptShare / VerifyShare / CombineShares / DecryptPrivate / DecodeCard:
//     threshold decryption with Chaum–Pedersen proofs, face up or to one player.
//   - Commit / VerifyOpening: salted SHA-256 commitments to face-down cards.
//   - CommitRandom / VerifyReveal / JointInt: commit–reveal joint randomness;
//     NewRandomChain / VerifyChainReveal: one commitment for many draws.
//   - NewCPace / Share / Key: CPace (draft-irtf-cfrg-cpace, ristretto255 and SHA-512), a
//     password-authenticated key exchange, for joining a private table with a short code.
//   - Seal / VerifySealedBox / Unseal / ProveBlame / VerifyBlame: a message sealed to
//     one player, with a public proof of what it held if the recipient says it lied. A
//     box proves knowledge of its ephemeral secret, and nobody blames (publishes x·E
//     for) a box whose proof fails, so a blame never hands out a player's decryption
//     share of a deck card.
//   - DealEscrow / VerifyEscrowDeal / OpenEscrowShare / VerifyEscrowBlame / RecoverKey:
//     Feldman sharing of a player's key among the others, each share in a sealed box to
//     its recipient; the constant term's commitment must be the player's published key,
//     a bad share is proven by blaming its box, and t shares rebuild the key.
//
// Errors that wrap ErrNonCanonical, ErrInvalidProof, ErrNotACard or ErrDecrypt blame
// the author of the input. README.md describes each construction, its encoding, its
// cost and its limits.
package crypto
