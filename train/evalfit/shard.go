package evalfit

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
)

// Streaming: a fit extracts its training examples once into a file of
// chunks (examplesFile) and reads them back, chunk by chunk, at every
// gradient pass, so that the memory of a fit does not grow with the
// number of games (only the chunks' offsets do: 16 bytes per 32 games).
//
// A chunk is stored as one record, in a purpose-made format that is
// cheap to decode (every pass decodes every record: a feature is its ID
// and count as two little-endian 16-bit words, as in memory, decoded by
// a loop as fast as a copy; a varint encoding of the gaps between the
// sorted IDs was 35% smaller but took more CPU to decode than the
// gradient took to compute), with the results' part first so that the
// passes that need only the hand-set evaluation and the results
// (FitHandScale) read a few bytes per position:
//
//	light: uvarint n; n × (target byte 0, 1, 2 = 0, ½, 1; weight float32;
//	       hand float32), floats little-endian
//	heavy: n × features; uvarint k (comparisons); k × (weight float32;
//	       uvarint moves; moves × features)
//	features: uvarint count; count × (uint16 ID; int16 N)
//
// The file is written sequentially and never read by anything else: its
// format is private to a run and may change with any version.

// examplesFile is the chunks of a dataset on disk.
type examplesFile struct {
	f    *os.File
	path string
	// record b is at offs[b] (offs[b+1] its end); light[b] is the length
	// of its results' part.
	offs  []int64
	light []int32
	w     *bufio.Writer
	buf   []byte
}

// createExamples creates the file of examples name in dir.
func createExamples(dir, name string) (*examplesFile, error) {
	p := filepath.Join(dir, name)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("train: evaluation examples: %w", err)
	}
	return &examplesFile{f: f, path: p, offs: []int64{0}, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// close closes and removes the file.
func (e *examplesFile) close() error {
	err := e.f.Close()
	return errors.Join(err, os.Remove(e.path))
}

func (e *examplesFile) chunks() int { return len(e.offs) - 1 }

func appendFeatures(b []byte, fs []evalfeat.Feature) []byte {
	b = binary.AppendUvarint(b, uint64(len(fs)))
	for _, f := range fs {
		b = binary.LittleEndian.AppendUint16(b, f.ID)
		b = binary.LittleEndian.AppendUint16(b, uint16(f.N))
	}
	return b
}

func appendFloat32(b []byte, v float32) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
}

// write appends chunk c to the file.
func (e *examplesFile) write(c *chunk) error {
	b := e.buf[:0]
	n := len(c.target)
	b = binary.AppendUvarint(b, uint64(n))
	for i := range n {
		b = append(b, byte(c.target[i]*2))
		b = appendFloat32(b, c.weight[i])
		b = appendFloat32(b, c.hand[i])
	}
	light := len(b)
	for i := range n {
		b = appendFeatures(b, c.feats[c.pos[i]:c.pos[i+1]])
	}
	k := len(c.cweight)
	b = binary.AppendUvarint(b, uint64(k))
	for g := range k {
		b = appendFloat32(b, c.cweight[g])
		lo, hi := c.cgroup[g], c.cgroup[g+1]
		b = binary.AppendUvarint(b, uint64(hi-lo))
		for j := lo; j < hi; j++ {
			b = appendFeatures(b, c.cfeats[c.cmove[j]:c.cmove[j+1]])
		}
	}
	e.buf = b
	if _, err := e.w.Write(b); err != nil {
		return fmt.Errorf("train: writing the evaluation examples: %w", err)
	}
	e.offs = append(e.offs, e.offs[len(e.offs)-1]+int64(len(b)))
	e.light = append(e.light, int32(light))
	return nil
}

// finish flushes what write buffered.
func (e *examplesFile) finish() error {
	if err := e.w.Flush(); err != nil {
		return fmt.Errorf("train: writing the evaluation examples: %w", err)
	}
	return nil
}

// errCorrupt is the error of a record that does not decode.
var errCorrupt = errors.New("train: the evaluation examples are corrupt")

// decoder reads the fields of a record.
type decoder struct {
	b   []byte
	err bool
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) float32() float32 {
	if len(d.b) < 4 {
		d.err, d.b = true, nil
		return 0
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(d.b))
	d.b = d.b[4:]
	return v
}

func (d *decoder) features(out []evalfeat.Feature) []evalfeat.Feature {
	n := int(d.uvarint())
	if n > evalfeat.MaxActive*2 || 4*n > len(d.b) {
		d.err, d.b = true, nil
		return out
	}
	start := len(out)
	out = slices.Grow(out, n)[:start+n]
	dst, b := out[start:], d.b[:4*n]
	for i := range dst {
		v := binary.LittleEndian.Uint32(b[4*i:])
		dst[i] = evalfeat.Feature{ID: uint16(v), N: int16(v >> 16)}
	}
	d.b = d.b[4*n:]
	return out
}

// read decodes record b into c (its slices reused), only the results'
// part when light (c's features and comparisons are then empty).
func (e *examplesFile) read(b int, c *chunk, light bool) error {
	lo, hi := e.offs[b], e.offs[b+1]
	if light {
		hi = lo + int64(e.light[b])
	}
	if int64(cap(c.raw)) < hi-lo {
		c.raw = make([]byte, hi-lo)
	}
	c.raw = c.raw[:hi-lo]
	if _, err := e.f.ReadAt(c.raw, lo); err != nil {
		return fmt.Errorf("train: reading the evaluation examples: %w", err)
	}
	d := decoder{b: c.raw}
	n := int(d.uvarint())
	if n > len(d.b) {
		return errCorrupt
	}
	c.target, c.weight, c.hand = c.target[:0], c.weight[:0], c.hand[:0]
	for range n {
		if len(d.b) < 9 {
			return errCorrupt
		}
		c.target = append(c.target, float32(d.b[0])/2)
		d.b = d.b[1:]
		c.weight = append(c.weight, d.float32())
		c.hand = append(c.hand, d.float32())
	}
	c.pos, c.feats = c.pos[:0], c.feats[:0]
	c.cgroup, c.cmove, c.cfeats, c.cweight = c.cgroup[:0], c.cmove[:0], c.cfeats[:0], c.cweight[:0]
	if light {
		return nil
	}
	for range n {
		c.pos = append(c.pos, uint32(len(c.feats)))
		c.feats = d.features(c.feats)
	}
	c.pos = append(c.pos, uint32(len(c.feats)))
	k := d.uvarint()
	for range k {
		if d.err {
			break
		}
		c.cweight = append(c.cweight, d.float32())
		c.cgroup = append(c.cgroup, uint32(len(c.cmove)))
		m := d.uvarint()
		if m > kifu.MaxMoves+1 {
			return errCorrupt
		}
		for range m {
			c.cmove = append(c.cmove, uint32(len(c.cfeats)))
			c.cfeats = d.features(c.cfeats)
		}
	}
	c.cgroup = append(c.cgroup, uint32(len(c.cmove)))
	c.cmove = append(c.cmove, uint32(len(c.cfeats)))
	if d.err || len(d.b) != 0 {
		return errCorrupt
	}
	return nil
}
