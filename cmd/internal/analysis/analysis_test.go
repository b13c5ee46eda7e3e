package analysis

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
)

func position(t *testing.T, usi string) *kifu.Position {
	t.Helper()
	p, err := kifu.ParseUSIPosition(usi)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPerft: the published start position counts, with and without the
// count per root move, and a cancelled divide.
func TestPerft(t *testing.T) {
	for _, tc := range []struct {
		depth  int
		divide bool
		want   uint64
	}{{1, false, 30}, {2, false, 900}, {2, true, 900}, {3, true, 25470}} {
		t.Run(fmt.Sprintf("depth%d-divide%v", tc.depth, tc.divide), func(t *testing.T) {
			var b bytes.Buffer
			got, err := Perft(context.Background(), &b, position(t, "startpos"), tc.depth, tc.divide)
			if err != nil || got != tc.want {
				t.Fatalf("Perft = %d, %v; want %d", got, err, tc.want)
			}
			lines := strings.Count(b.String(), "\n")
			if want := map[bool]int{false: 0, true: 30}[tc.divide]; lines != want {
				t.Errorf("%d lines written, want %d:\n%s", lines, want, b.String())
			}
			if tc.divide && !strings.Contains(b.String(), "7g7f ") {
				t.Errorf("no line for 7g7f:\n%s", b.String())
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Perft(ctx, &bytes.Buffer{}, position(t, "startpos"), 2, true); err != context.Canceled {
		t.Errorf("cancelled divide: %v, want context.Canceled", err)
	}
}

// TestClassify compares the lines of a position after a bishop capture
// with those rpshogi classify printed before the code moved here.
func TestClassify(t *testing.T) {
	want, err := os.ReadFile("testdata/classify-7g7f-3c3d-8h2b+.golden")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(Classify(position(t, "startpos moves 7g7f 3c3d 8h2b+")), "\n") + "\n"
	if got != string(want) {
		t.Errorf("Classify:\n%s\nwant:\n%s", got, want)
	}
}

// TestWriteCategories: one line per category, in id order, four fields,
// "-" for an empty grade.
func TestWriteCategories(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCategories(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != categorize.Count() {
		t.Fatalf("%d lines, want %d", len(lines), categorize.Count())
	}
	dashes := 0
	for i, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 4 || f[0] != fmt.Sprintf("%d", categorize.List()[i].ID) || f[1] != categorize.List()[i].Name || f[3] == "" {
			t.Errorf("line %d: %q", i, l)
		}
		if f[3] == "-" {
			dashes++
		}
	}
	if dashes == 0 {
		t.Error("no category without a grade shown as -")
	}
}
