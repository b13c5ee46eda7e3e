package modelrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/train/modelfit"
)

func TestParseWeights(t *testing.T) {
	got, err := ParseWeights([]string{"selfplay=0.25", "pro/=2", "x=0"})
	want := []modelfit.SourceWeight{{Contains: "selfplay", Weight: 0.25}, {Contains: "pro/", Weight: 2}, {Contains: "x", Weight: 0}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("%v %v", got, err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, bad := range []string{"selfplay", "=1", "a=-1", "a=x"} {
		if _, err := ParseWeights([]string{bad}); err == nil || !strings.Contains(err.Error(), "want SUBSTRING=W") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestParseGroups(t *testing.T) {
	gs, err := ParseGroups([]string{"cra", "king"})
	if err != nil || len(gs) != 2 || gs[0].String() != "cra" || gs[1].String() != "king" {
		t.Errorf("%v %v", gs, err)
	}
	if _, err := ParseGroups([]string{"nope"}); err == nil || !strings.Contains(err.Error(), GroupList()) {
		t.Errorf("unknown group: %v", err)
	}
	if n := strings.Count(GroupList(), ",") + 1; n != int(features.GroupNB) {
		t.Errorf("GroupList %q: %d groups, want %d", GroupList(), n, features.GroupNB)
	}
}

func TestDesc(t *testing.T) {
	if got, want := Desc(DefaultIterations, DefaultL2, nil, nil, 0), "iterations=100 l2=0.0001 weights= without= max-games=0"; got != want {
		t.Errorf("defaults: %q, want %q", got, want)
	}
	if got, want := Desc(5, 0.5, []string{"a=1", "b=0"}, []string{"cra", "king"}, 9), "iterations=5 l2=0.5 weights=a=1,b=0 without=cra,king max-games=9"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestWritePositionScores writes a header and one exact line per
// position.
func TestWritePositionScores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "positions.tsv")
	ps := []modelfit.PositionScore{{Game: 0, Move: 1, Phase: 0, LogLik: -0.5, Top1: 1}, {Game: 3, Move: 90, Phase: 2, LogLik: -2.25, Top1: 0.5}}
	if err := WritePositionScores(path, ps); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	want := "game\tmove\tphase\tloglik\ttop1\n0\t1\topening\t-0.5\t1\n3\t90\tendgame\t-2.25\t0.5\n"
	if err != nil || string(b) != want {
		t.Errorf("%q, %v; want %q", b, err, want)
	}
	if err := WritePositionScores(filepath.Join(t.TempDir(), "none", "p.tsv"), ps); err == nil || !strings.HasPrefix(err.Error(), "model eval: ") {
		t.Errorf("into a missing folder: %v", err)
	}
}
