package tables

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"sync"
)

// Digest returns the SHA-256 ("sha256:" and 64 hex digits) of the tables
// compiled into this binary: every Entry of the probability table, its
// Source, and the move model's digest and weights. Two binaries with the
// same Digest search with the same numbers; "rpshogi --version" and
// "rpshogi-engine --version" print it.
func Digest() string { return digestOnce() }

var digestOnce = newDigest()

// newDigest returns a function computing the digest once.
func newDigest() func() string { return sync.OnceValue(computeDigest) }

func computeDigest() string {
	h := sha256.New()
	fmt.Fprintf(h, "table %s %d %d %d\n", Source, Games, Positions, CategoryListVersion)
	for i := range entries {
		e := &entries[i]
		fmt.Fprintf(h, "%d %s %d %d %d %x %d %x %d\n", i, e.Name, e.NP, e.NC, e.MC,
			math.Float64bits(e.P), e.Cost, math.Float64bits(e.PM), e.PMCost)
	}
	fmt.Fprintf(h, "model %s %d %d\n", ModelDigest, ModelFeatureVersion, len(model.Weights))
	var b [4]byte
	for _, w := range model.Weights {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(w))
		h.Write(b[:])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
