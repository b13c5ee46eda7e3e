package modelfit

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/train/stream"
)

// exampleStore holds the chunks of a Dataset, in memory or spilled to a
// file. Chunks are appended in order by one goroutine and read back, in
// any order, by many.
type exampleStore interface {
	// add appends c (which the store may keep: the caller does not reuse it).
	add(c *chunk) error
	// len returns the number of chunks.
	len() int
	// get returns chunk i, decoded into buf when the store is on disk
	// (buf is then reused by the next get with it).
	get(i int, buf *chunk) (*chunk, error)
	// bytes returns the size of the examples as stored.
	bytes() int64
	// finish ends the adding: the chunks can then be read.
	finish() error
	close() error
}

// memStore keeps every chunk in memory.
type memStore struct {
	chunks []*chunk
	size   int64
}

func (s *memStore) add(c *chunk) error {
	s.chunks = append(s.chunks, c)
	s.size += chunkBytes(c)
	return nil
}
func (s *memStore) len() int                            { return len(s.chunks) }
func (s *memStore) get(i int, _ *chunk) (*chunk, error) { return s.chunks[i], nil }
func (s *memStore) bytes() int64                        { return s.size }
func (s *memStore) finish() error                       { return nil }
func (s *memStore) close() error                        { s.chunks = nil; return nil }

// chunkBytes returns the memory the slices of c take.
func chunkBytes(c *chunk) int64 {
	return int64(4*len(c.posMove) + 4*len(c.played) + 4*len(c.weight) + 8*len(c.game) + 4*len(c.ply) +
		4*len(c.moveFeat) + 2*len(c.feats))
}

// splitStore keeps the first chunks in memory, up to budget bytes, and
// spills the others to a file: a collection whose examples fit in the
// budget is fitted at the speed of memory, a larger one with memory
// bounded by the budget.
type splitStore struct {
	mem    memStore
	budget int64
	dir    string
	file   *fileStore // created at the first chunk over the budget
}

func (s *splitStore) add(c *chunk) error {
	if s.file == nil && s.mem.size+chunkBytes(c) <= s.budget {
		return s.mem.add(c)
	}
	if s.file == nil {
		f, err := newFileStore(s.dir)
		if err != nil {
			return err
		}
		s.file = f
	}
	return s.file.add(c)
}

func (s *splitStore) len() int {
	n := s.mem.len()
	if s.file != nil {
		n += s.file.len()
	}
	return n
}

func (s *splitStore) get(i int, buf *chunk) (*chunk, error) {
	if i < s.mem.len() {
		return s.mem.get(i, buf)
	}
	return s.file.get(i-s.mem.len(), buf)
}

func (s *splitStore) bytes() int64 {
	n := s.mem.bytes()
	if s.file != nil {
		n += s.file.bytes()
	}
	return n
}

// spilled returns the bytes of the examples in the file.
func (s *splitStore) spilled() int64 {
	if s.file == nil {
		return 0
	}
	return s.file.bytes()
}

func (s *splitStore) finish() error {
	if s.file != nil {
		return s.file.finish()
	}
	return nil
}

func (s *splitStore) close() error {
	s.mem.close()
	if s.file != nil {
		return s.file.close()
	}
	return nil
}

// fileStore spills the chunks to a file that has no name: it is created
// in a folder and removed at once (on Unix the space is freed when the
// file is closed or the process ends, even by SIGKILL, so a killed fit
// leaves nothing behind). Only the offsets of the chunks stay in memory.
type fileStore struct {
	file *stream.File
	enc  []byte
}

// newFileStore creates the examples file in dir.
func newFileStore(dir string) (*fileStore, error) {
	f, err := newSpillFile(dir, ".rpshogi-model-examples-*")
	if err != nil {
		return nil, err
	}
	return &fileStore{file: stream.NewFile(f)}, nil
}

// spillFile is a spill file, or the File of records written to it.
type spillFile interface {
	Close() error
	Name() string
}

// newSpillFile creates a file for the fit's own use in dir ("":
// os.TempDir) and, where an open file outlives its name (Unix), removes
// its name at once: its space is freed when it is closed or the process
// ends, even by SIGKILL. closeSpillFile closes it (and removes it where
// it kept its name).
func newSpillFile(dir, pattern string) (*os.File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, fmt.Errorf("train: the fit's spill file: %w", err)
	}
	if removeOpenFiles {
		if err := os.Remove(f.Name()); err != nil {
			f.Close()
			return nil, fmt.Errorf("train: the fit's spill file: %w", err)
		}
	}
	return f, nil
}

func closeSpillFile(f spillFile) error {
	err := f.Close()
	if !removeOpenFiles {
		if e := os.Remove(f.Name()); err == nil {
			err = e
		}
	}
	return err
}

func (s *fileStore) add(c *chunk) error {
	s.enc = encodeChunk(s.enc[:0], c)
	if err := s.file.Append(s.enc); err != nil {
		return fmt.Errorf("train: writing the fit's examples: %w", err)
	}
	return nil
}

// finish writes what add buffered.
func (s *fileStore) finish() error {
	if err := s.file.Flush(); err != nil {
		return fmt.Errorf("train: writing the fit's examples: %w", err)
	}
	return nil
}

func (s *fileStore) len() int     { return s.file.Len() }
func (s *fileStore) bytes() int64 { return s.file.Size() }

func (s *fileStore) get(i int, buf *chunk) (*chunk, error) {
	n := s.file.RecordSize(i)
	if int64(cap(buf.raw)) < n {
		buf.raw = make([]byte, n)
	}
	raw := buf.raw[:n]
	if err := s.file.ReadAt(i, raw, 0); err != nil {
		return nil, fmt.Errorf("train: reading the fit's examples: %w", err)
	}
	if err := decodeChunk(raw, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

func (s *fileStore) close() error { return closeSpillFile(s.file) }

// The encoding of a chunk: uvarints np, nm, nf (positions, moves,
// features); then per position its number of legal moves, the played
// move's index among them, its weight (float32 bits, little-endian), its
// game (a varint, the difference from the previous position's) and its
// ply; then per move its number of features (one byte: features.MaxActive <
// 256); then every move's features, two bytes each, little-endian. The
// features are most of the bytes and are read on every pass of the fit:
// fixed-width, they decode at the speed of a copy (a varint of their
// differences took 1.7 bytes instead of 2 and decoded 6 times slower
// than the pass that reads them).

func encodeChunk(b []byte, c *chunk) []byte {
	np, nm := len(c.played), len(c.moveFeat)-1
	b = binary.AppendUvarint(b, uint64(np))
	b = binary.AppendUvarint(b, uint64(nm))
	b = binary.AppendUvarint(b, uint64(len(c.feats)))
	prev := int64(0)
	for i := range np {
		b = binary.AppendUvarint(b, uint64(c.posMove[i+1]-c.posMove[i]))
		b = binary.AppendUvarint(b, uint64(c.played[i]-c.posMove[i]))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(c.weight[i]))
		b = binary.AppendVarint(b, c.game[i]-prev)
		prev = c.game[i]
		b = binary.AppendUvarint(b, uint64(c.ply[i]))
	}
	for j := range nm {
		b = append(b, byte(c.moveFeat[j+1]-c.moveFeat[j]))
	}
	for _, f := range c.feats {
		b = binary.LittleEndian.AppendUint16(b, f)
	}
	return b
}

// errCorrupt reports examples that do not decode: the file was changed
// under the fit.
var errCorrupt = fmt.Errorf("train: the fit's examples file is corrupt")

// decodeChunk decodes raw into c, reusing its slices.
func decodeChunk(raw []byte, c *chunk) error {
	r := reader{b: raw}
	np, nm, nf := int(r.uvarint()), int(r.uvarint()), int(r.uvarint())
	if r.bad || np > len(raw) || nm > len(raw) || nf > len(raw) {
		return errCorrupt
	}
	c.posMove = grow(c.posMove, np+1)
	c.played = grow(c.played, np)
	c.weight = grow(c.weight, np)
	c.game = grow(c.game, np)
	c.ply = grow(c.ply, np)
	c.moveFeat = grow(c.moveFeat, nm+1)
	c.feats = grow(c.feats, nf)
	game := int64(0)
	m := uint32(0)
	for i := range np {
		c.posMove[i] = m
		n := uint32(r.uvarint())
		c.played[i] = m + uint32(r.uvarint())
		c.weight[i] = math.Float32frombits(r.uint32())
		game += r.varint()
		c.game[i] = game
		c.ply[i] = int32(r.uvarint())
		m += n
	}
	c.posMove[np] = m
	if int(m) != nm {
		return errCorrupt
	}
	if len(r.b) != nm+2*nf {
		return errCorrupt
	}
	k := uint32(0)
	for j, n := range r.b[:nm] {
		c.moveFeat[j] = k
		k += uint32(n)
	}
	c.moveFeat[nm] = k
	if int(k) != nf {
		return errCorrupt
	}
	fs := r.b[nm : nm+2*len(c.feats)]
	hi := uint16(0)
	for x := range c.feats {
		f := uint16(fs[2*x]) | uint16(fs[2*x+1])<<8
		c.feats[x] = f
		hi = max(hi, f)
	}
	if nf > 0 && int(hi) >= features.NumFeatures() {
		return errCorrupt
	}
	r.b = nil
	if r.bad || len(r.b) != 0 {
		return errCorrupt
	}
	return nil
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// reader decodes varints from b, setting bad (and returning 0) past its
// end.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) uint32() uint32 {
	if len(r.b) < 4 {
		r.bad = true
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}
