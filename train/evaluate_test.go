package train

import (
	"math"
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
)

// TestScorePosition checks the metrics of one position, ties included.
func TestScorePosition(t *testing.T) {
	tests := []struct {
		name             string
		scores           []float64
		played           int
		top1, top3, top5 float64
	}{
		{"best alone", []float64{0.5, 0.25, 0.25}, 0, 1, 1, 1},
		{"second", []float64{0.5, 0.3, 0.2}, 1, 0, 1, 1},
		{"tied for first with one", []float64{0.4, 0.4, 0.2}, 1, 0.5, 1, 1},
		{"tied with five, one above", []float64{0.9, 0.1, 0.1, 0.1, 0.1, 0.1}, 3, 0, 0.4, 0.8},
		{"all equal", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 7, 0.1, 0.3, 0.5},
		{"sixth", []float64{6, 5, 4, 3, 2, 1}, 5, 0, 0, 0},
		{"forced", []float64{0.01}, 0, 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s sums
			s.scorePosition(tt.scores, tt.played, false)
			total := 0.0
			for _, v := range tt.scores {
				total += v
			}
			want := math.Log(tt.scores[tt.played] / total)
			if math.Abs(s.top1-tt.top1) > 1e-12 || math.Abs(s.top3-tt.top3) > 1e-12 || math.Abs(s.top5-tt.top5) > 1e-12 || math.Abs(s.loglik-want) > 1e-12 {
				t.Errorf("top1/3/5 %v %v %v loglik %v, want %v %v %v %v", s.top1, s.top3, s.top5, s.loglik, tt.top1, tt.top3, tt.top5, want)
			}
		})
	}
}

// TestMostProbable checks the order, the n_c threshold and the cap.
func TestMostProbable(t *testing.T) {
	var tl Tally
	tl.Cats[0] = Count{NP: 10, NC: 100}
	tl.Cats[1] = Count{NP: 50, NC: 100}
	tl.Cats[2] = Count{NP: 9, NC: 10} // too few positions
	tl.Cats[3] = Count{NP: 50, NC: 100}
	got := tl.MostProbable(0)
	name := func(id int) string { return categorize.List()[id].Name }
	if len(got) != 3 || got[0].Name != name(1) || got[1].Name != name(3) || got[2].Name != name(0) ||
		got[0].P != 0.5 || got[2].P != 0.1 || got[2].NP != 10 || got[2].NC != 100 {
		t.Fatalf("%+v", got)
	}
	if n := len(tl.MostProbable(2)); n != 2 {
		t.Errorf("MostProbable(2): %d rows", n)
	}
}
