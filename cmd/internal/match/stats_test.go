package match

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol
}

func TestEloFunctions(t *testing.T) {
	tests := []struct {
		name  string
		score float64
		elo   float64
	}{
		{"even", 0.5, 0},
		{"three to one", 0.75, 400 * math.Log10(3)}, // 190.85
		{"one to three", 0.25, -400 * math.Log10(3)},
		{"ten to one", 10.0 / 11, 400},
		{"all won", 1, math.Inf(1)},
		{"all lost", 0, math.Inf(-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EloFromScore(tt.score); !near(got, tt.elo, 1e-9) {
				t.Errorf("EloFromScore(%g) = %g, want %g", tt.score, got, tt.elo)
			}
			if !math.IsInf(tt.elo, 0) {
				if got := ScoreFromElo(tt.elo); !near(got, tt.score, 1e-12) {
					t.Errorf("ScoreFromElo(%g) = %g, want %g", tt.elo, got, tt.score)
				}
			}
		})
	}
}

// The reference values were computed independently, in Python, with
// fishtest's formulas (LLRcalc.LLR_logistic: regularize, results_to_pdf,
// MLE_expected through the secular equation) and the normal interval of
// the mean score, or, for a bound at or beyond a score of 0 or 1, the
// Wilson score bound. The first row is the paper's Table 2 at 10 s a move
// (137 wins, 8 draws, 55 losses).
func TestScoreStatistics(t *testing.T) {
	tests := []struct {
		name           string
		s              Score
		elo, low, high float64
		los            float64
		llr0_50        float64 // SPRT elo0=0 elo1=50
		llrm10_10      float64 // SPRT elo0=-10 elo1=10
	}{
		{"paper table 2", Score{137, 8, 55}, 151.34684040529427, 102.47072452506858, 206.65023554847951, 0.9999999983690173, 10.154951430167, 4.916928488413},
		{"no draws", Score{109, 0, 91}, 31.354042247812043, -16.699467018904652, 80.64267002276665, 0.8984541062114161, 0.526456126874, 1.036168471245},
		{"even with draws", Score{30, 40, 30}, 0, -53.157979780053225, 53.157979780053275, 0.5, -1.712346908057, 0},
		{"mixed", Score{50, 20, 30}, 70.43650362227247, 10.125158404040864, 135.30061830185437, 0.9873263406612658, 2.315745646668, 1.438976070319},
		// A 100% score: the lower bound is Wilson's (finite), not a
		// one-point interval at infinity (issue 31, item 4).
		{"all won", Score{10, 0, 0}, math.Inf(1), 166.20152718389093, math.Inf(1), 0.9992172988709987, 1.335897789825, 0.575646261730},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.s.Elo()
			if !near(e.Elo, tt.elo, 1e-6) || !near(e.Low, tt.low, 1e-6) || !near(e.High, tt.high, 1e-6) {
				t.Errorf("Elo %g [%g, %g], want %g [%g, %g]", e.Elo, e.Low, e.High, tt.elo, tt.low, tt.high)
			}
			if !near(e.LOS, tt.los, 1e-9) {
				t.Errorf("LOS %.12g, want %.12g", e.LOS, tt.los)
			}
			if got := (SPRT{0, 50, 0.05, 0.05}).LLR(tt.s); !near(got, tt.llr0_50, 1e-6) {
				t.Errorf("LLR(0, 50) = %.12f, want %.12f", got, tt.llr0_50)
			}
			if got := (SPRT{-10, 10, 0.05, 0.05}).LLR(tt.s); !near(got, tt.llrm10_10, 1e-6) {
				t.Errorf("LLR(-10, 10) = %.12f, want %.12f", got, tt.llrm10_10)
			}
		})
	}
}

// TestEloBoundsAtTheEdges (issue 31, item 4): the normal interval of a
// score near or at 0% or 100% reaches beyond it, which made a bound
// infinite ("[-, 221.2]" in the report) or the whole interval one
// infinite point; that bound is Wilson's instead, finite but at a score of
// exactly 0 or 1. Values computed independently (Python, Wilson's formula).
func TestEloBoundsAtTheEdges(t *testing.T) {
	for _, tt := range []struct {
		s              Score
		elo, low, high float64
	}{
		{Score{1, 0, 9}, -381.69700377572997, -695.9562826624867, -158.98518507251035},
		{Score{0, 0, 10}, math.Inf(-1), math.Inf(-1), -166.201527183891},
		{Score{0, 1, 9}, -511.50144038113154, -911.2781232788434, -311.1014993824766},
	} {
		e := tt.s.Elo()
		if !near(e.Elo, tt.elo, 1e-6) || !near(e.Low, tt.low, 1e-6) || !near(e.High, tt.high, 1e-6) {
			t.Errorf("%+v: Elo %g [%g, %g], want %g [%g, %g]", tt.s, e.Elo, e.Low, e.High, tt.elo, tt.low, tt.high)
		}
	}
}

func TestScoreNoGames(t *testing.T) {
	var s Score
	e := s.Elo()
	if !math.IsNaN(e.Elo) || !math.IsNaN(e.Low) || !math.IsNaN(e.LOS) {
		t.Errorf("Elo of no game = %+v, want NaNs", e)
	}
	if llr := (SPRT{0, 50, 0.05, 0.05}).LLR(s); llr != 0 {
		t.Errorf("LLR of no game = %g", llr)
	}
}

func TestSPRTState(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}
	lo, hi := test.Bounds()
	if !near(lo, -math.Log(19), 1e-12) || !near(hi, math.Log(19), 1e-12) {
		t.Fatalf("bounds %g %g, want ∓log 19", lo, hi)
	}
	tests := []struct {
		name     string
		s        Score
		decision string
	}{
		// Python reference: all wins cross log 19 at the 8th game, all
		// losses cross -log 19 at the 5th.
		{"7 wins", Score{Wins: 7}, ""},
		{"8 wins", Score{Wins: 8}, "H1"},
		{"4 losses", Score{Losses: 4}, ""},
		{"5 losses", Score{Losses: 5}, "H0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := test.State(tt.s)
			if st.Decision != tt.decision {
				t.Errorf("decision %q (LLR %g), want %q", st.Decision, st.LLR, tt.decision)
			}
		})
	}
}

func TestParseSPRT(t *testing.T) {
	tests := []struct {
		in   string
		want SPRT
		err  bool
	}{
		{"elo0=0,elo1=50,alpha=0.05,beta=0.05", SPRT{0, 50, 0.05, 0.05}, false},
		{"elo0=-5, elo1=5", SPRT{-5, 5, 0.05, 0.05}, false},
		{"elo0=0,elo1=10,alpha=0.01,beta=0.1", SPRT{0, 10, 0.01, 0.1}, false},
		{"elo0=10,elo1=0", SPRT{}, true},
		{"elo1=10", SPRT{}, true},
		{"elo0=0,elo1=10,alpha=0.7", SPRT{}, true},
		{"elo0=0,elo1=x", SPRT{}, true},
		{"elo0=0,elo1=10,gamma=1", SPRT{}, true},
		{"elo0=0,elo1=NaN", SPRT{}, true},
		{"", SPRT{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSPRT(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("error %v, want error %v", err, tt.err)
			}
			if err == nil && got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
