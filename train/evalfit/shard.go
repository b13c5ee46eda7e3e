package evalfit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/train/stream"
)

// Streaming: a fit extracts its training examples once into a file of
// chunks (examplesFile) and reads them back, chunk by chunk, at every
// gradient pass, so that the memory of a fit does not grow with the
// number of games (only the chunks' offsets do: 12 bytes per 32 games).
//
// A chunk is stored as one record that is its arrays in memory, one
// after the other, in the machine's own byte order: the file is written
// and read by one process (a run's private file, removed at its end), so
// a pass reads a record into a buffer and uses the arrays in place, with
// no decoding (a decoded format, fixed-width or varint, cost a pass as
// much CPU as the gradient itself). Every element is 4 bytes
// (evalfeat.Feature is two 16-bit words), so every array is aligned in a
// buffer of uint32. A record:
//
//	header: 5 × uint32: positions n, features f, comparisons k, moves m,
//	        comparison features cf
//	light:  target [n]float32, weight [n]float32, hand [n]float32
//	heavy:  pos [n+1]uint32, feats [f]Feature, cgroup [k+1]uint32,
//	        cmove [m+1]uint32, cfeats [cf]Feature, cweight [k]float32
//
// The light part comes first so that the passes that need only the
// hand-set evaluation and the results (FitHandScale) read 12 bytes per
// position.

// The header's length in words.
const headerWords = 5

// examplesFile is the chunks of a dataset on disk, a record each.
type examplesFile struct {
	file *stream.File
	path string
}

// createExamples creates the file of examples name in dir.
func createExamples(dir, name string) (*examplesFile, error) {
	p := filepath.Join(dir, name)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("train: evaluation examples: %w", err)
	}
	return &examplesFile{file: stream.NewFile(f), path: p}, nil
}

// close closes and removes the file.
func (e *examplesFile) close() error {
	err := e.file.Close()
	return errors.Join(err, os.Remove(e.path))
}

func (e *examplesFile) chunks() int { return e.file.Len() }

// asBytes returns the memory of s as bytes.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// as returns the n elements of type T (4 bytes) at word off of w.
func as[T any](w []uint32, off, n int) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&w[off])), n)
}

// write appends chunk c to the file.
func (e *examplesFile) write(c *chunk) error {
	hdr := [headerWords]uint32{uint32(len(c.target)), uint32(len(c.feats)), uint32(len(c.cweight)),
		uint32(len(c.cmove) - 1), uint32(len(c.cfeats))}
	err := e.file.Append(asBytes(hdr[:]), asBytes(c.target), asBytes(c.weight), asBytes(c.hand),
		asBytes(c.pos), asBytes(c.feats), asBytes(c.cgroup), asBytes(c.cmove), asBytes(c.cfeats), asBytes(c.cweight))
	if err != nil {
		return fmt.Errorf("train: writing the evaluation examples: %w", err)
	}
	return nil
}

// finish flushes what write buffered.
func (e *examplesFile) finish() error {
	if err := e.file.Flush(); err != nil {
		return fmt.Errorf("train: writing the evaluation examples: %w", err)
	}
	return nil
}

// errCorrupt is the error of a record that does not decode.
var errCorrupt = errors.New("train: the evaluation examples are corrupt")

// read reads record b into c, whose arrays then point into c.raw (reused
// from one read to the next); only the results' part when light (c's
// features and comparisons are then empty).
func (e *examplesFile) read(b int, c *chunk, light bool) error {
	size := e.file.RecordSize(b)
	if size%4 != 0 || size < 4*headerWords {
		return errCorrupt
	}
	words := int(size / 4)
	if light {
		// The header, then the light part once its length is known.
		words = headerWords
	}
	for pass := 0; pass < 2; pass++ {
		if cap(c.raw) < words {
			c.raw = make([]uint32, words)
		}
		c.raw = c.raw[:words]
		if err := e.file.ReadAt(b, asBytes(c.raw), 0); err != nil {
			return fmt.Errorf("train: reading the evaluation examples: %w", err)
		}
		if !light || pass == 1 {
			break
		}
		words = min(headerWords+3*int(c.raw[0]), int(size/4))
	}
	w := c.raw
	n, f, k, m, cf := int(w[0]), int(w[1]), int(w[2]), int(w[3]), int(w[4])
	if m > k*(kifu.MaxMoves+1) {
		return errCorrupt
	}
	need := headerWords + 3*n
	if !light {
		need += (n + 1) + f + (k + 1) + (m + 1) + cf + k
	}
	if need != len(w) {
		return errCorrupt
	}
	off := headerWords
	next := func(size int) int { o := off; off += size; return o }
	c.target = as[float32](w, next(n), n)
	c.weight = as[float32](w, next(n), n)
	c.hand = as[float32](w, next(n), n)
	c.pos, c.feats, c.cgroup, c.cmove, c.cfeats, c.cweight = nil, nil, nil, nil, nil, nil
	if light {
		return nil
	}
	c.pos = as[uint32](w, next(n+1), n+1)
	c.feats = as[evalfeat.Feature](w, next(f), f)
	c.cgroup = as[uint32](w, next(k+1), k+1)
	c.cmove = as[uint32](w, next(m+1), m+1)
	c.cfeats = as[evalfeat.Feature](w, next(cf), cf)
	c.cweight = as[float32](w, next(k), k)
	// The offsets index the arrays: check them (a feature's ID indexes
	// the weights, out of range only in a file that is not this run's,
	// and then a bounds check stops the fit).
	if c.pos[0] != 0 || int(c.pos[n]) != f || c.cgroup[0] != 0 || int(c.cgroup[k]) != m || c.cmove[0] != 0 || int(c.cmove[m]) != cf {
		return errCorrupt
	}
	for i := range n {
		if c.pos[i] > c.pos[i+1] {
			return errCorrupt
		}
	}
	for i := range k {
		if c.cgroup[i] >= c.cgroup[i+1] {
			return errCorrupt
		}
	}
	for i := range m {
		if c.cmove[i] > c.cmove[i+1] {
			return errCorrupt
		}
	}
	return nil
}
