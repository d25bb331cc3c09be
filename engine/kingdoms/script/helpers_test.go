package script_test

import "encoding/hex"

func hexDigest(d [32]byte) string { return hex.EncodeToString(d[:]) }
