package kifu

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseReplayCorpus decodes, parses and replays every file of
// the shared corpus per iteration, and reports records/s and MB/s.
func BenchmarkParseReplayCorpus(b *testing.B) {
	dir := sharedDir(b)
	type file struct {
		name string
		data []byte
	}
	var files []file
	var size int64
	for _, row := range readManifest(b, dir) {
		data, err := os.ReadFile(filepath.Join(dir, row.Path))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, file{row.Path, data})
		size += int64(len(data))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	records, moves := 0, 0
	for b.Loop() {
		records, moves = 0, 0
		for _, f := range files {
			text, _, err := DecodeText(f.name, f.data)
			if err != nil {
				b.Fatal(err)
			}
			recs, err := ParseRecords(f.name, text)
			var re *ReplayError
			if err != nil && !errors.As(err, &re) {
				b.Fatal(err)
			}
			for _, r := range recs {
				p, err := r.Replay()
				if err != nil && r.ReplayErr == nil {
					b.Fatal(err)
				}
				records++
				moves += p.Ply()
			}
		}
	}
	if records != len(files) {
		b.Fatalf("%d records from %d files", records, len(files))
	}
	b.ReportMetric(float64(records)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(moves)*float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}
