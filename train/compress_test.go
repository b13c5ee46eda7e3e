package train

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/ipc"
)

// TestPositionsCompressed trains the same games with 1 worker on 1 core
// and with 4 workers on 4 cores: positions.arrow is byte-identical, and
// compressed (PositionsCompression): written again with the same batches
// uncompressed it is more than twice as large.
func TestPositionsCompressed(t *testing.T) {
	paths := corpusPaths(t, "pro")[:40]
	dir := t.TempDir()
	var files [][]byte
	for _, procs := range []int{1, 4} {
		sub := filepath.Join(dir, "p"+itoa(int64(procs)))
		prev := runtime.GOMAXPROCS(procs)
		train(t, filepath.Join(sub, "rp.sqlite"), Options{Ingest: includeAll(procs), ArrowDir: sub}, paths...)
		runtime.GOMAXPROCS(prev)
		b, err := os.ReadFile(filepath.Join(sub, PositionsFile))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatalf("positions.arrow: %d bytes on 1 core, %d on 4, not the same bytes", len(files[0]), len(files[1]))
	}
	// The same batches, uncompressed.
	f, err := os.Open(filepath.Join(dir, "p1", PositionsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	a, err := createArrow(t.TempDir(), PositionsFile, r.Schema())
	if err != nil {
		t.Fatal(err)
	}
	defer a.discard()
	rows := 0
	for i := range r.NumRecords() {
		rec, err := r.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		rows += int(rec.NumRows())
		if err := a.w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if rows == 0 {
		t.Fatal("positions.arrow has no rows")
	}
	if err := a.close(); err != nil {
		t.Fatal(err)
	}
	fi, err := a.f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if plain := fi.Size(); plain < 2*int64(len(files[0])) {
		t.Fatalf("positions.arrow of %d rows: %d bytes, %d uncompressed: not compressed", rows, len(files[0]), plain)
	}
	t.Logf("positions.arrow of %d rows: %d bytes, %d uncompressed", rows, len(files[0]), fi.Size())
}
