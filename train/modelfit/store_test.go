package modelfit

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/ingest"
)

// TestReadMerged writes models with hand-made books and wants ReadMerged
// to give what Read gives with its two books merged by Books: the same
// entries in the same order, the same digest. The books have keys above
// 2^63 (stored as negative SQLite integers), several moves of one key,
// and a formation key that is also a position key (MergeBooks leaves the
// formation's entries of it out).
func TestReadMerged(t *testing.T) {
	const top = 1 << 63
	book := func(kv ...uint64) *features.Book {
		b := &features.Book{}
		for i := 0; i < len(kv); i += 2 {
			b.Keys, b.Vals = append(b.Keys, kv[i]), append(b.Vals, uint32(kv[i+1]))
		}
		return b
	}
	pos := book(5, 0, 5, 0x00120003, 5, 0x00340001, 9, 2, top+1, 0x00560002, top+7, 0x00780009)
	form := book(3, 0x00110001, 9, 0x00990001, top, 0x00220004, top+1, 0x00330001, top+2, 0)
	for _, tc := range []struct {
		name      string
		pos, form *features.Book
	}{
		{"both", pos, form},
		{"no formation", pos, nil},
		{"no position book", nil, form},
		{"none", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := ingest.OpenDB(filepath.Join(t.TempDir(), "m.sqlite"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			w := make([]float64, features.NumFeatures())
			w[0], w[len(w)-1] = 0.5, -1.25
			ds := &Dataset{Games: 2, Positions: 3, Moves: 40, Book: tc.pos, Formation: tc.form}
			if _, err := Write(ctx, db, RunInfo{Data: ds, Result: &Result{Weights: w, Iterations: 1}, Options: "test"}); err != nil {
				t.Fatal(err)
			}
			two, err := Read(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			one, err := ReadMerged(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			want := features.MergeBooks(tc.pos, tc.form)
			if want == nil {
				want = &features.Book{}
			}
			if one.Formation != nil {
				t.Errorf("ReadMerged: a formation book of %d entries, want nil", one.Formation.Len())
			}
			got := one.Books()
			if got == nil {
				t.Fatal("ReadMerged: no book, though the tables exist")
			}
			if !slices.Equal(got.Keys, want.Keys) || !slices.Equal(got.Vals, want.Vals) {
				t.Errorf("ReadMerged book:\nkeys %x\nvals %x\nwant\nkeys %x\nvals %x", got.Keys, got.Vals, want.Keys, want.Vals)
			}
			if m := two.Books(); !slices.Equal(m.Keys, want.Keys) || !slices.Equal(m.Vals, want.Vals) {
				t.Errorf("Read's books merged: %x %x, want %x %x", m.Keys, m.Vals, want.Keys, want.Vals)
			}
			if one.Digest != two.Digest || !slices.Equal(one.Weights, two.Weights) {
				t.Errorf("ReadMerged digest %s, Read %s", one.Digest, two.Digest)
			}
		})
	}
}
