// Package modelbin is the binary file of the learned move model
// (tables/model.bin, embedded by tables/model_gen.go): written by
// train/modelfit (Encode, "rpshogi model gen", the pipeline), read by
// package tables when a program starts (Decode).
//
// The file is little-endian, with no padding:
//
//	offset  size   field
//	0       8      magic "RPSMODEL"
//	8       4      format version (uint32, FormatVersion)
//	12      4      feature version (uint32, categorize/features.Version)
//	16      8      games the model was fitted on (int64)
//	24      8      positions the model was fitted on (int64)
//	32      4      W, the number of weights (uint32, one per feature ID)
//	36      4      B, the number of book entries (uint32)
//	40      32     the model's digest (Digest), as its 32 SHA-256 bytes
//	72      4·W    the weights by feature ID (float32 bits)
//	..      8·B    the book's keys, sorted (uint64)
//	..      4·B    the book's values (uint32)
//
// and nothing after. The weights are stored whole (zeros included): at
// three quarters non-zero, an ID/value pair per non-zero weight would be
// larger. Decode checks every field and recomputes the digest, so a
// truncated, padded or altered file is an error, never zero weights.
package modelbin

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Magic opens every model file.
const Magic = "RPSMODEL"

// FormatVersion is the version of the layout above; Decode refuses others.
const FormatVersion = 1

// HeaderSize is the size of the fields before the weights.
const HeaderSize = 72

// Model is the content of a model file.
type Model struct {
	FeatureVersion int
	Games          int64
	Positions      int64
	// Digest is "sha256:" and 64 hex digits: Digest(FeatureVersion,
	// Weights, Keys, Vals).
	Digest  string
	Weights []float32
	// Keys and Vals are the book (categorize/features.Book): as many
	// values as keys, the keys sorted.
	Keys []uint64
	Vals []uint32
}

// Digest returns "sha256:" and the hex SHA-256 of the feature version
// (uint32), the weights (float32 bits) and each book entry's key and
// value (uint64, uint32), all little-endian: the digest of
// train/modelfit.WeightsDigest, which the generated ModelDigest holds.
func Digest(featureVersion int, w []float32, keys []uint64, vals []uint32) string {
	sum := digest(featureVersion, w, keys, vals)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func digest(featureVersion int, w []float32, keys []uint64, vals []uint32) [sha256.Size]byte {
	h := sha256.New()
	// Hash in blocks rather than 4 bytes a call: the book has ~10^5 entries.
	buf := make([]byte, 0, 1<<14)
	flush := func() {
		h.Write(buf)
		buf = buf[:0]
	}
	buf = binary.LittleEndian.AppendUint32(buf, uint32(featureVersion))
	for _, v := range w {
		if len(buf)+4 > cap(buf) {
			flush()
		}
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
	}
	for i, k := range keys {
		if len(buf)+12 > cap(buf) {
			flush()
		}
		buf = binary.LittleEndian.AppendUint64(buf, k)
		buf = binary.LittleEndian.AppendUint32(buf, vals[i])
	}
	flush()
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// parseDigest returns the SHA-256 bytes of a "sha256:HEX" digest.
func parseDigest(s string) ([sha256.Size]byte, error) {
	var out [sha256.Size]byte
	hx, ok := bytes.CutPrefix([]byte(s), []byte("sha256:"))
	if !ok || len(hx) != 2*sha256.Size {
		return out, fmt.Errorf("modelbin: digest %q is not sha256: and 64 hex digits", s)
	}
	if _, err := hex.Decode(out[:], hx); err != nil {
		return out, fmt.Errorf("modelbin: digest %q: %v", s, err)
	}
	return out, nil
}

// Encode returns the file of m. It fails when m's digest is not that of
// its content, when the book's keys and values differ in number or its
// keys are not sorted, or when a count does not fit the header.
func Encode(m *Model) ([]byte, error) {
	if len(m.Keys) != len(m.Vals) {
		return nil, fmt.Errorf("modelbin: the book has %d keys and %d values", len(m.Keys), len(m.Vals))
	}
	if !slices.IsSorted(m.Keys) {
		return nil, errors.New("modelbin: the book's keys are not sorted")
	}
	if m.FeatureVersion < 0 || m.FeatureVersion > math.MaxUint32 || len(m.Weights) > math.MaxUint32 || len(m.Keys) > math.MaxUint32 {
		return nil, fmt.Errorf("modelbin: feature version %d, %d weights, %d book entries: out of range", m.FeatureVersion, len(m.Weights), len(m.Keys))
	}
	want, err := parseDigest(m.Digest)
	if err != nil {
		return nil, err
	}
	if got := digest(m.FeatureVersion, m.Weights, m.Keys, m.Vals); got != want {
		return nil, fmt.Errorf("modelbin: the model's digest is %s, its content's %s", m.Digest, "sha256:"+hex.EncodeToString(got[:]))
	}
	b := make([]byte, 0, HeaderSize+4*len(m.Weights)+12*len(m.Keys))
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint32(b, FormatVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(m.FeatureVersion))
	b = binary.LittleEndian.AppendUint64(b, uint64(m.Games))
	b = binary.LittleEndian.AppendUint64(b, uint64(m.Positions))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.Weights)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.Keys)))
	b = append(b, want[:]...)
	for _, v := range m.Weights {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	for _, k := range m.Keys {
		b = binary.LittleEndian.AppendUint64(b, k)
	}
	for _, v := range m.Vals {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b, nil
}

// Decode reads a model file. It fails, saying why, when b is not one:
// another magic or format version, a size other than the header's counts
// give, book keys out of order, or content whose digest is not the
// header's.
func Decode(b []byte) (*Model, error) {
	if len(b) < HeaderSize {
		return nil, fmt.Errorf("modelbin: %d bytes, shorter than the %d-byte header", len(b), HeaderSize)
	}
	if string(b[:8]) != Magic {
		return nil, fmt.Errorf("modelbin: magic %q, want %q", b[:8], Magic)
	}
	le := binary.LittleEndian
	if v := le.Uint32(b[8:]); v != FormatVersion {
		return nil, fmt.Errorf("modelbin: format version %d, this program reads %d", v, FormatVersion)
	}
	m := &Model{
		FeatureVersion: int(le.Uint32(b[12:])),
		Games:          int64(le.Uint64(b[16:])),
		Positions:      int64(le.Uint64(b[24:])),
	}
	nw, nb := uint64(le.Uint32(b[32:])), uint64(le.Uint32(b[36:]))
	var stored [sha256.Size]byte
	copy(stored[:], b[40:HeaderSize])
	if want := HeaderSize + 4*nw + 12*nb; uint64(len(b)) != want {
		return nil, fmt.Errorf("modelbin: %d bytes, the header's %d weights and %d book entries make %d", len(b), nw, nb, want)
	}
	p := b[HeaderSize:]
	m.Weights = make([]float32, nw)
	for i := range m.Weights {
		m.Weights[i] = math.Float32frombits(le.Uint32(p[4*i:]))
	}
	p = p[4*nw:]
	m.Keys = make([]uint64, nb)
	for i := range m.Keys {
		m.Keys[i] = le.Uint64(p[8*i:])
	}
	p = p[8*nb:]
	m.Vals = make([]uint32, nb)
	for i := range m.Vals {
		m.Vals[i] = le.Uint32(p[4*i:])
	}
	if !slices.IsSorted(m.Keys) {
		return nil, errors.New("modelbin: the book's keys are not sorted")
	}
	got := digest(m.FeatureVersion, m.Weights, m.Keys, m.Vals)
	if got != stored {
		return nil, fmt.Errorf("modelbin: the content's digest is sha256:%x, the header's sha256:%x (the file is damaged)", got, stored)
	}
	m.Digest = "sha256:" + hex.EncodeToString(stored[:])
	return m, nil
}
