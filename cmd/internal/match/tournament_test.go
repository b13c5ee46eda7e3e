package match

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestPairs(t *testing.T) {
	tests := []struct {
		p    Pairing
		n    int
		want [][2]int
	}{
		{Gauntlet, 2, [][2]int{{0, 1}}},
		{Gauntlet, 4, [][2]int{{0, 1}, {0, 2}, {0, 3}}},
		{RoundRobin, 3, [][2]int{{0, 1}, {0, 2}, {1, 2}}},
		{RoundRobin, 4, [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}},
	}
	for _, tt := range tests {
		if got := tt.p.Pairs(tt.n); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %d: %v, want %v", tt.p, tt.n, got, tt.want)
		}
	}
	if _, err := ParsePairing("swiss"); err == nil {
		t.Error("swiss accepted")
	}
}

// TestTournament: three fake engines of known strength (a plays on, b
// resigns at its 3rd move, c at its 1st) in a round robin: a > b > c,
// every match's records in its own folder.
func TestTournament(t *testing.T) {
	dir := t.TempDir()
	engines := []EngineSpec{fakeSpec("a", "first"), fakeSpec("b", "resign=3"), fakeSpec("c", "resign=1")}
	base := Config{TC: byoyomi2s, Openings: openingsAfter(t, "7g7f 3c3d"), RecordsDir: dir}
	var met [][2]int
	tour, err := RunTournament(context.Background(), base, engines, RoundRobin, func(a, b int) { met = append(met, [2]int{a, b}) })
	if err != nil {
		t.Fatal(err)
	}
	if len(tour.Reports) != 3 || !reflect.DeepEqual(met, RoundRobin.Pairs(3)) {
		t.Fatalf("%d reports, matches %v", len(tour.Reports), met)
	}
	var names []string
	for _, s := range tour.Standings {
		names = append(names, s.Name)
	}
	if !reflect.DeepEqual(names, []string{"a", "b", "c"}) || tour.Standings[0].Score != (Score{Wins: 4}) || tour.Standings[2].Score != (Score{Losses: 4}) {
		t.Errorf("standings %+v", tour.Standings)
	}
	for _, pair := range [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}} {
		if _, err := os.Stat(filepath.Join(PairDir(dir, pair[0], pair[1]), recordName(1))); err != nil {
			t.Error(err)
		}
	}
	// The gauntlet of the same engines: a against b and c only.
	tour, err = RunTournament(context.Background(), Config{TC: byoyomi2s}, engines, Gauntlet, nil)
	if err != nil || len(tour.Reports) != 2 || tour.Reports[1].Summary.Engines != [2]string{"a", "c"} {
		t.Fatalf("gauntlet: %v %+v", err, tour)
	}
	if _, err := RunTournament(context.Background(), base, engines[:1], Gauntlet, nil); err == nil {
		t.Error("one engine accepted")
	}
}
