package recfile

import (
	"fmt"
	"strings"
	"testing"
)

const multi = "../../../kifu/testdata/csa/multi.csa"

// TestGame picks one game of a file of several, and says why when it
// cannot.
func TestGame(t *testing.T) {
	all, _, err := Read(multi)
	if err != nil || len(all) < 2 {
		t.Fatalf("Read(%s): %d records, %v; want 2 or more", multi, len(all), err)
	}
	for _, tc := range []struct {
		path string
		n    int
		want string // error text, "" for success
	}{
		{multi, 1, ""},
		{multi, 2, ""},
		{multi, len(all) + 1, "there is no game"},
		{multi, 0, "numbered from 1"},
		{"testdata/none.kif", 1, "no such file"},
	} {
		rec, err := Game(tc.path, tc.n)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Game(%s, %d): %v", tc.path, tc.n, err)
		case tc.want == "" && fmt.Sprint(rec.Main.Moves) != fmt.Sprint(all[tc.n-1].Main.Moves):
			t.Errorf("Game(%s, %d) is not game %d", tc.path, tc.n, tc.n)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Game(%s, %d): %v, want an error saying %q", tc.path, tc.n, err, tc.want)
		}
	}
	if got, _ := Pick(multi, all, 0); len(got) != len(all) {
		t.Errorf("Pick(0) = %d records, want all %d", len(got), len(all))
	}
}
