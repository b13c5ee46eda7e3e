package modelbin

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"
)

// sample returns a small model with a digest that fits it.
func sample() *Model {
	m := &Model{FeatureVersion: 9, Games: 12, Positions: 3456,
		Weights: []float32{0, -0.25, 1.5, 0, float32(math.Inf(1)), -0, 3e-39},
		Keys:    []uint64{1, 7, 7, 1 << 63}, Vals: []uint32{0x10001, 2, 3, 0xffffffff}}
	m.Digest = Digest(m.FeatureVersion, m.Weights, m.Keys, m.Vals)
	return m
}

// TestRoundTrip checks that Decode gives back what Encode was given, bit
// for bit, that the layout is the documented one, and that the same
// model gives the same bytes.
func TestRoundTrip(t *testing.T) {
	for _, m := range []*Model{sample(), {FeatureVersion: 1, Digest: Digest(1, nil, nil, nil)}} {
		b, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if want := HeaderSize + 4*len(m.Weights) + 12*len(m.Keys); len(b) != want {
			t.Errorf("%d bytes, want %d", len(b), want)
		}
		if string(b[:8]) != Magic || binary.LittleEndian.Uint32(b[8:]) != FormatVersion || binary.LittleEndian.Uint32(b[32:]) != uint32(len(m.Weights)) {
			t.Errorf("header % x", b[:40])
		}
		again, _ := Encode(m)
		if !bytes.Equal(b, again) {
			t.Error("two encodings of one model differ")
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		bits := func(w []float32) []uint32 {
			out := make([]uint32, len(w))
			for i, v := range w {
				out[i] = math.Float32bits(v)
			}
			return out
		}
		if got.FeatureVersion != m.FeatureVersion || got.Games != m.Games || got.Positions != m.Positions || got.Digest != m.Digest ||
			!slices.Equal(bits(got.Weights), bits(m.Weights)) || !slices.Equal(got.Keys, m.Keys) || !slices.Equal(got.Vals, m.Vals) {
			t.Errorf("Decode(Encode(m)) = %+v, want %+v", got, m)
		}
	}
}

// TestDecodeDamaged checks that every kind of damage to a file is an
// error that says what is wrong.
func TestDecodeDamaged(t *testing.T) {
	good, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	nw := len(sample().Weights)
	tests := []struct {
		name   string
		damage func(b []byte) []byte
		want   string
	}{
		{"empty", func(b []byte) []byte { return nil }, "shorter than the 72-byte header"},
		{"header cut", func(b []byte) []byte { return b[:HeaderSize-1] }, "shorter than"},
		{"truncated", func(b []byte) []byte { return b[:len(b)-1] }, "book entries make"},
		{"one byte more", func(b []byte) []byte { return append(b, 0) }, "book entries make"},
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, "magic"},
		{"format version", func(b []byte) []byte { b[8] = 2; return b }, "format version 2"},
		{"weight count", func(b []byte) []byte { b[32]++; return b }, "book entries make"},
		{"feature version", func(b []byte) []byte { b[12]++; return b }, "damaged"},
		{"a weight's bit", func(b []byte) []byte { b[HeaderSize+5] ^= 1; return b }, "damaged"},
		{"a book value", func(b []byte) []byte { b[len(b)-1] ^= 0x80; return b }, "damaged"},
		{"the digest", func(b []byte) []byte { b[40] ^= 1; return b }, "damaged"},
		{"book order", func(b []byte) []byte {
			k := HeaderSize + 4*nw
			copy(b[k:k+8], b[k+24:k+32]) // the first key becomes the largest
			return b
		}, "not sorted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.damage(bytes.Clone(good))
			m, err := Decode(b)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "modelbin: ") {
				t.Errorf("Decode: %v, %v; want an error with %q", m, err, tt.want)
			}
		})
	}
}

// TestEncodeRefuses checks that Encode refuses a model whose digest is
// not its content's or whose book is malformed.
func TestEncodeRefuses(t *testing.T) {
	tests := []struct {
		name   string
		change func(m *Model)
		want   string
	}{
		{"stale digest", func(m *Model) { m.Weights[1] = 2 }, "its content's"},
		{"no digest", func(m *Model) { m.Digest = "" }, "not sha256:"},
		{"bad hex", func(m *Model) { m.Digest = "sha256:" + strings.Repeat("g", 64) }, "invalid byte"},
		{"values missing", func(m *Model) { m.Vals = m.Vals[:2] }, "4 keys and 2 values"},
		{"unsorted", func(m *Model) { m.Keys[0] = 9 }, "not sorted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sample()
			tt.change(m)
			if _, err := Encode(m); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Encode: %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// FuzzDecode checks that Decode never panics and that what it accepts
// encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	good, _ := Encode(sample())
	f.Add(good)
	f.Add(good[:HeaderSize])
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			return
		}
		again, err := Encode(m)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("Encode(Decode(b)): %v, equal %v", err, bytes.Equal(again, b))
		}
	})
}
