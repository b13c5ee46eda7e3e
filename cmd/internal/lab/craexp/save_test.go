package craexp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseFixedOrders(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string // the orders, or the error's text
	}{
		{[]string{"simple", "cra-prob"}, "[simple cra-prob]"},
		{nil, "give at least one"},
		{[]string{"cra", "fast"}, `unknown "fast"`},
	} {
		got, err := ParseFixedOrders(tc.in)
		s := fmt.Sprint(got)
		if err != nil {
			s = err.Error()
		}
		if !strings.Contains(s, tc.want) {
			t.Errorf("ParseFixedOrders(%q) = %s, want %s", tc.in, s, tc.want)
		}
	}
}

func TestCheckDepths(t *testing.T) {
	for _, tc := range []struct {
		in []int
		ok bool
	}{{[]int{1, 8}, true}, {nil, false}, {[]int{3, 9}, false}, {[]int{0}, false}} {
		if err := CheckDepths(tc.in); (err == nil) != tc.ok {
			t.Errorf("CheckDepths(%v) = %v, want ok %v", tc.in, err, tc.ok)
		}
	}
}

// TestSearchToDir: the plots and the data are written after each
// position (a run stopped early leaves them) and listed in the report;
// the progress lines and the summary name every position and algorithm.
func TestSearchToDir(t *testing.T) {
	rec := record(t, "startpos moves 7g7f 3c3d 8h2b+ 3a2b 2g2f 8c8d")
	dir := filepath.Join(t.TempDir(), "out")
	var progress bytes.Buffer
	opts := SearchOptions{Depths: []int{1, 2}, Orders: []FixedOrder{FixedSimple, FixedCRA}, From: 3, To: 4}
	rep, err := SearchToDir(context.Background(), rec, opts, dir, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(progress.String(), "searched"); got != 2 {
		t.Errorf("%d progress lines, want 2:\n%s", got, progress.String())
	}
	want := []string{"cra-1ply.svg", "cra-1ply-nodes.svg", "cra-2ply.svg", "cra-2ply-nodes.svg"}
	if len(rep.Plots) != len(want) {
		t.Fatalf("plots %q, want %q", rep.Plots, want)
	}
	for i, p := range rep.Plots {
		if p != filepath.Join(dir, want[i]) {
			t.Errorf("plot %d: %s, want %s", i, p, want[i])
		}
		if b, err := os.ReadFile(p); err != nil || !bytes.Contains(b, []byte("<svg")) || !bytes.HasSuffix(bytes.TrimSpace(b), []byte("</svg>")) {
			t.Errorf("%s: %v, %.20q", p, err, b)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "cra-search.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back SearchReport
	if err := json.Unmarshal(data, &back); err != nil || back.Positions != 2 || len(back.Plots) != 4 {
		t.Errorf("cra-search.json: %v, %d positions, %d plots", err, back.Positions, len(back.Plots))
	}
	var b bytes.Buffer
	WriteSearch(&b, rep)
	for _, s := range []string{"2 positions, no quiescence", "\n1 ply\n", "\n2 ply\n", "  simple ", "cra vs simple", "wrote " + rep.Plots[0]} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("summary does not say %q:\n%s", s, b.String())
		}
	}
	if err := Save("", rep); err != nil {
		t.Errorf(`Save(""): %v, want nothing done`, err)
	}
}
