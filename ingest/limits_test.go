package ingest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// zipOf returns a zip archive of the named members, in order, deflated.
func zipOf(t testing.TB, members ...any) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(members); i += 2 {
		w, err := zw.Create(members[i].(string))
		if err != nil {
			t.Fatal(err)
		}
		switch d := members[i+1].(type) {
		case []byte:
			w.Write(d)
		case io.Reader:
			io.Copy(w, d)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// tgzOf returns a tar.gz archive of one member.
func tgzOf(t testing.TB, name string, size int64, r io.Reader) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: size, Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(tw, r); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

// zeros is an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// legalLine returns an SFEN game line of n legal moves (kings walking to
// and fro), about 5 bytes a move.
func legalLine(n int) string {
	cycle := []string{"5i4h", "5a4b", "4h5i", "4b5a"}
	var b strings.Builder
	b.WriteString("startpos moves")
	for i := range n {
		b.WriteString(" " + cycle[i%4])
	}
	return b.String()
}

const okSFEN = "startpos moves 7g7f 3c3d 8h2b+ 3a2b\n"

// runAlloc runs ingest on paths with the given limits and returns the
// report and the bytes allocated meanwhile (an upper bound of the memory
// used).
func runAlloc(t *testing.T, lim Limits, paths ...string) (*Report, uint64) {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rep, err := Run(context.Background(), Options{Workers: 2, Limits: lim}, paths, Discard)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Check(); err != nil {
		t.Fatal(err)
	}
	return rep, after.TotalAlloc - before.TotalAlloc
}

// limitReject returns the first reject of kind limit of rep whose reason
// holds reason.
func limitReject(t *testing.T, rep *Report, reason string) *Reject {
	t.Helper()
	for _, rj := range rep.Rejects {
		if rj.Kind == RejectLimit && strings.Contains(rj.Reason, reason) {
			return rj
		}
	}
	t.Fatalf("no limit reject with %q; rejects %v", reason, rep.Rejects)
	return nil
}

// TestLimitsHostileInputs builds hostile inputs (small in the test, huge
// once unpacked) and checks that each is rejected with the bound it
// exceeds and the archive chain of the member, that the good record
// beside it is still read, and that memory stays within the limits.
func TestLimitsHostileInputs(t *testing.T) {
	small := Limits{MaxFileBytes: 1 << 20, MaxTotalBytes: 16 << 20}
	tests := []struct {
		name   string
		file   string
		build  func(t *testing.T) []byte
		lim    Limits
		source string // of the reject, after the file's path
		reason string
		line   int
		lost   bool // the good record is lost with the hostile one
	}{
		{
			// Each level is a zip holding the next one and a good record:
			// the walk reads the 8 levels the default allows.
			name: "zip nested 300 deep", file: "deep.zip", lim: Limits{},
			build: func(t *testing.T) []byte {
				data := zipOf(t, "g.sfen", []byte(okSFEN))
				for range 300 {
					data = zipOf(t, "g.sfen", []byte(okSFEN), "in.zip", data)
				}
				return data
			},
			source: strings.Repeat("!in.zip", 8), reason: "nested 9 deep, deeper than the limit of 8",
		},
		{
			name: "tar.gz and zip nested alternately", file: "deep.zip", lim: Limits{MaxDepth: 3},
			build: func(t *testing.T) []byte {
				data := zipOf(t, "g.sfen", []byte(okSFEN))
				for i := range 10 {
					if i%2 == 0 {
						data = tgzOf(t, "in.zip", int64(len(data)), bytes.NewReader(data))
					} else {
						data = zipOf(t, "g.sfen", []byte(okSFEN), "in.tgz", data)
					}
				}
				return data
			},
			source: "!in.tgz!in.zip!in.tgz", reason: "nested 4 deep, deeper than the limit of 3",
		},
		{
			// 16 × 16 × 16 × 1 MB of zeros in 40 kB: 4 GB.
			name: "zip of zips bomb", file: "bomb.zip", lim: small,
			build: func(t *testing.T) []byte {
				var in []any
				for i := range 16 {
					in = append(in, fmt.Sprintf("z%02d.kif", i), io.LimitReader(zeros{}, 1<<20))
				}
				inner := zipOf(t, in...)
				var mid, top []any
				for i := range 16 {
					mid = append(mid, fmt.Sprintf("z%02d.zip", i), inner)
				}
				midZip := zipOf(t, mid...)
				top = append(top, "a.sfen", []byte(okSFEN))
				for i := range 16 {
					top = append(top, fmt.Sprintf("m%02d.zip", i), midZip)
				}
				return zipOf(t, top...)
			},
			source: "!m00.zip!z00.zip!z15.kif", reason: "more than 16.0 MB decompressed from",
		},
		{
			// One member of 200 MB of zeros: too large to read, and the
			// tar stream must still be read through to go on.
			name: "tar.gz bomb", file: "bomb.tar.gz", lim: small,
			build: func(t *testing.T) []byte {
				return tgzOf(t, "big.kif", 200<<20, io.LimitReader(zeros{}, 200<<20))
			},
			source: "", reason: "more than 16.0 MB decompressed from", lost: true,
		},
		{
			name: "zip member too large", file: "large.zip", lim: small,
			build: func(t *testing.T) []byte {
				return zipOf(t, "a.sfen", []byte(okSFEN), "big.kif", io.LimitReader(zeros{}, 8<<20))
			},
			source: "!big.kif", reason: "file of 8388608 bytes is larger than the 1.0 MB limit",
		},
		{
			name: "file too large", file: "big.kif", lim: small,
			build: func(t *testing.T) []byte {
				return bytes.Repeat([]byte("a\n"), 1<<20)
			},
			source: "", reason: "file larger than the 1.0 MB limit (--max-file-size)", lost: true,
		},
		{
			// A 3 MB line of legal moves: without the bound it costs
			// hundreds of MB to parse (about 100 bytes a byte).
			name: "long SFEN line", file: "long.sfen", lim: Limits{},
			build: func(t *testing.T) []byte {
				return []byte(okSFEN + legalLine(600_000) + "\n")
			},
			source: "", reason: "line 2 is longer than the 64.0 kB limit for one line", line: 2, lost: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("TMPDIR", t.TempDir())
			defer func() {
				if left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "*")); len(left) > 0 {
					t.Errorf("temporary files left: %v", left)
				}
			}()
			file := filepath.Join(dir, tt.file)
			data := tt.build(t)
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			rep, alloc := runAlloc(t, tt.lim, file)
			rj := limitReject(t, rep, tt.reason)
			if rj.Source != file+tt.source || !strings.Contains(rj.Reason, tt.reason) || rj.Line != tt.line {
				t.Errorf("reject %s (line %d), want source %s, line %d, a reason with %q", rj, rj.Line, file+tt.source, tt.line, tt.reason)
			}
			lim := tt.lim.withDefaults()
			// What is read in memory is one file at a time, plus the
			// parse of a file of at most one line of the limit.
			bound := uint64(64<<20 + 4*min(lim.MaxFileBytes, 16<<20))
			t.Logf("%s: %d bytes on disk, %d allocated, %d accepted, reject %s", tt.file, len(data), alloc, rep.Accepted, rj)
			if alloc > bound {
				t.Errorf("allocated %d bytes, more than %d", alloc, bound)
			}
			if !tt.lost && rep.Accepted < 1 {
				t.Errorf("the good record beside the hostile one was not read: %+v", rep)
			}
		})
	}
}

// TestCheckLines counts lines ending in \n, \r\n or \r.
func TestCheckLines(t *testing.T) {
	tests := []struct {
		data string
		line int // 0: within the limit
	}{
		{"abc\ndef\n", 0},
		{"abcdef", 2 - 1},
		{"ab\r\nabcde\n", 2},
		{"ab\rab\rabcde", 3},
		{"abcd\r\nabcd\n\nabcd\r\n", 0},
		{"\n\n\n12345", 4},
	}
	for _, tt := range tests {
		err := checkLines([]byte(tt.data), 4)
		got := 0
		if le, ok := err.(*LimitError); ok {
			got = le.Line
		}
		if got != tt.line {
			t.Errorf("checkLines(%q, 4) = %v, want line %d", tt.data, err, tt.line)
		}
	}
}

// paxBlock returns a tar header block of type x (PAX records), which
// tar.Writer does not write for GNU sparse records.
func paxBlock(records ...string) []byte {
	var data []byte
	for _, r := range records {
		n := len(r) + 3
		for len(fmt.Sprintf("%d %s\n", n, r)) != n {
			n++
		}
		data = append(data, fmt.Sprintf("%d %s\n", n, r)...)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "pax", Typeflag: tar.TypeReg, Size: int64(len(data)), Format: tar.FormatUSTAR})
	tw.Write(data)
	tw.Flush()
	b := buf.Bytes()
	b[156] = tar.TypeXHeader
	copy(b[148:156], "        ")
	sum := 0
	for _, c := range b[:512] {
		sum += int(c)
	}
	copy(b[148:156], fmt.Sprintf("%06o\x00 ", sum))
	return b
}

// TestTarSparseSkipped: a GNU sparse member of a tar stream reads as
// zeros that the stream does not hold (here 1 GB from 513 bytes), out of
// sight of the budget: it is skipped, never read.
func TestTarSparseSkipped(t *testing.T) {
	var buf bytes.Buffer
	buf.Write(paxBlock("GNU.sparse.major=1", "GNU.sparse.minor=0", "GNU.sparse.name=x.zip", "GNU.sparse.realsize=1000000000"))
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "GNUSparseFile.0/x.zip", Typeflag: tar.TypeReg, Size: 513, Format: tar.FormatUSTAR})
	sparseMap := make([]byte, 512)
	copy(sparseMap, "1\n999999999\n1\n") // one byte of data after a hole of 999,999,999
	tw.Write(sparseMap)
	tw.Write([]byte{'x'})
	tw.WriteHeader(&tar.Header{Name: "a.sfen", Typeflag: tar.TypeReg, Size: int64(len(okSFEN))})
	tw.Write([]byte(okSFEN))
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "sparse.tar")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, _ := runAlloc(t, Limits{MaxTotalBytes: 16 << 20}, file)
	if rep.Accepted != 1 || rep.SkippedBy[SkipSpecial] != 1 || len(rep.SkippedList) != 1 || rep.SkippedList[0].Source != file+"!x.zip" {
		t.Errorf("accepted %d, skipped %v %v; want 1 and the sparse x.zip skipped", rep.Accepted, rep.SkippedBy, rep.SkippedList)
	}
}
