package modelrun

import (
	"strings"
	"testing"

	fm "github.com/rpshogi/rpshogi/categorize/movemodel"
	"github.com/rpshogi/rpshogi/train/movemodel"
)

func TestParseWeights(t *testing.T) {
	got, err := ParseWeights([]string{"selfplay=0.25", "pro/=2", "x=0"})
	want := []movemodel.SourceWeight{{Contains: "selfplay", Weight: 0.25}, {Contains: "pro/", Weight: 2}, {Contains: "x", Weight: 0}}
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
	if n := strings.Count(GroupList(), ",") + 1; n != int(fm.GroupNB) {
		t.Errorf("GroupList %q: %d groups, want %d", GroupList(), n, fm.GroupNB)
	}
}
