package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fuzzLimits are small bounds, so that the fuzzer reaches them.
var fuzzLimits = Limits{MaxFileBytes: 64 << 10, MaxLineBytes: 4 << 10, MaxDepth: 3, MaxTotalBytes: 1 << 20}

// FuzzArchive gives arbitrary bytes to the walker as a zip, a tar and a
// tar.gz archive, and each input it emits to the worker's processFile:
// nothing panics, every input is within the bounds (file size, nesting,
// bytes decompressed), and no temporary file is left.
//
//	go test ./ingest -run '^$' -fuzz '^FuzzArchive$' -fuzztime 5m -fuzzminimizetime 2s -parallel 1
//
// (go run ./cmd/internal/fuzzall runs every fuzz target: docs/fuzzing.md.)
func FuzzArchive(f *testing.F) {
	rec := []byte(okSFEN)
	inner := zipOf(f, "a.sfen", rec, "b.kif", []byte(illegalLastKIF))
	f.Add(inner)
	f.Add(zipOf(f, "in.zip", inner, "c.csa", []byte("PI\n+\n+7776FU\n%TORYO\n")))
	f.Add(zipOf(f, "in.tgz", tgzOf(f, "in.zip", int64(len(inner)), bytes.NewReader(inner))))
	f.Add(tgzOf(f, "a.sfen", int64(len(rec)), bytes.NewReader(rec)))
	deep := inner
	for range 5 {
		deep = zipOf(f, "d.zip", deep)
	}
	f.Add(deep)
	f.Add([]byte("PK\x03\x04 not really"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		dir := filepath.Join(tmp, "in")
		os.Mkdir(dir, 0o755)
		for _, name := range []string{"f.zip", "f.tar", "f.tgz"} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		w := &Walker{Exts: RecordExts, Limits: fuzzLimits}
		opts := &Options{Limits: fuzzLimits.withDefaults()}
		ch := make(chan Input)
		errc := make(chan error, 1)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() { errc <- w.Walk(ctx, []string{dir}, ch); close(ch) }()
		// The bounds make every input quick: a walk still going after
		// 20 s is a hang (the fuzzer then keeps the input).
		timer := time.AfterFunc(20*time.Second, func() {
			cancel()
			panic(fmt.Sprintf("walking %d bytes as archives takes more than 20 s", len(data)))
		})
		defer timer.Stop()
		total := map[string]int64{} // bytes read, by top-level archive
		for in := range ch {
			top, _, _ := bytes.Cut([]byte(in.Name), []byte("!"))
			total[string(top)] += int64(len(in.Data))
			if int64(len(in.Data)) > fuzzLimits.MaxFileBytes {
				t.Errorf("%s: %d bytes, more than the %d limit", in.Name, len(in.Data), fuzzLimits.MaxFileBytes)
			}
			var le *LimitError
			if errors.As(in.Err, &le) && le.What == "archive nesting" && le.Got != int64(fuzzLimits.MaxDepth)+1 {
				t.Errorf("%s: %v", in.Name, le)
			}
			res := processFile(in, opts)
			for _, it := range res.items {
				if it.reject != nil && it.reject.Kind == RejectInternal {
					t.Errorf("%s: %s", in.Name, it.reject)
				}
			}
		}
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
		for top, n := range total {
			if n > fuzzLimits.MaxTotalBytes {
				t.Errorf("%s: %d bytes read, more than the %d limit", top, n, fuzzLimits.MaxTotalBytes)
			}
		}
		left, _ := filepath.Glob(filepath.Join(tmp, "rpshogi-*"))
		if len(left) > 0 {
			t.Errorf("temporary files left: %v", left)
		}
	})
}
