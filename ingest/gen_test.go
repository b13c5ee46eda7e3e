package ingest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// randomRecord is kifutest.RandomRecord: a random legal game of up to
// plies moves from sfen, seeded by seed, with headers and an ending.
func randomRecord(t testing.TB, seed uint64, plies int, sfen string) *kifu.Record {
	t.Helper()
	rec, err := kifutest.RandomRecord(seed, plies, sfen)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// recordBytes writes rec in format f.
func recordBytes(t testing.TB, f kifu.Format, rec *kifu.Record) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := kifu.WriteRecord(&b, f, rec); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writeFile writes data to dir/name, making folders.
func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// smallCollection returns a folder tree of record files: the kifu
// package's test records (every format, variations, handicaps, illegal
// moves, several games per file) plus random games written as KIF, CSA
// and KI2 (some twice, in two formats), as slash paths → bytes.
func smallCollection(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	src := filepath.Join("..", "kifu", "testdata")
	for _, sub := range []string{"kif", "ki2", "csa", "sfen"} {
		ents, err := os.ReadDir(filepath.Join(src, sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() || filepath.Ext(e.Name()) == ".golden" {
				continue
			}
			b, err := os.ReadFile(filepath.Join(src, sub, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files["kifu-testdata/"+sub+"/"+e.Name()] = b
		}
	}
	for i := range 30 {
		rec := randomRecord(t, uint64(i), 40+i, kifu.StartSFEN)
		files[fmt.Sprintf("random/kif/%02d.kif", i)] = recordBytes(t, kifu.FormatKIF, rec)
		if i%3 == 0 {
			files[fmt.Sprintf("random/csa/%02d.csa", i)] = recordBytes(t, kifu.FormatCSA, rec)
		}
		if i%5 == 0 {
			files[fmt.Sprintf("random/ki2/%02d.ki2", i)] = recordBytes(t, kifu.FormatKI2, rec)
		}
	}
	return files
}

// writeCollection writes files under dir.
func writeCollection(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		writeFile(t, dir, name, data)
	}
}
