package engine

import (
	"testing"
	"time"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/kifu"
)

// TestUSIEnteringKingRules plays each EnteringKingRule through the USI
// loop on positions at the rules' boundaries: bestmove win where the
// rule lets the side to move declare, a move where it does not, and the
// try rule's king move.
func TestUSIEnteringKingRules(t *testing.T) {
	const (
		black31 = "sfen +L+NSGKGS+N+L/+R+BP6/9/9/9/9/9/9/7k1 b 12P 1" // 31 points, 10 pieces in the camp
		black30 = "sfen +L+NSGKGS+N+L/+R+BP6/9/9/9/9/9/9/7k1 b 11P 1" // 30
		// Two-piece handicap material: White, the upper hand, 17 points.
		upper17 = "sfen 8K/9/PPPPPPPPP/9/9/9/9/pp7/+l+nsgkgs+n+l w RB2G2S2N2L7p 1"
		try     = "sfen 9/4K4/9/9/9/9/9/9/k8 b - 1" // the king one step from 5a
	)
	tests := []struct {
		rule, pos string
		want      string // "win", a move, or "!win": anything else
	}{
		{"CSARule27", black30, "win"},
		{"CSARule24", black31, "win"},
		{"CSARule24", black30, "!win"}, // 24 to 30 points is a draw, not a win
		{"CSARule24H", black31, "win"},
		{"CSARule27", upper17, "!win"},
		{"CSARule27H", upper17, "win"}, // 27 - 10 missing points
		{"CSARule24H", upper17, "!win"},
		{"TryRule", black31, "!win"}, // no declaration under the try rule
		{"TryRule", try, "5b5a"},
		{"NoEnteringKing", black31, "!win"},
	}
	p := startLoop(t, Config{Name: "test-engine"})
	p.send("usi")
	p.expect("usiok", 5*time.Second)
	p.send("setoption name USI_Hash value 16", "isready")
	p.expect("readyok", 10*time.Second)
	for _, tt := range tests {
		p.send("setoption name EnteringKingRule value "+tt.rule, "position "+tt.pos, "go depth 1")
		m := p.bestMove(60 * time.Second)
		if tt.want == "!win" && m == "win" || tt.want != "!win" && m != tt.want {
			t.Errorf("%s, %s: bestmove %s, want %s", tt.rule, tt.pos, m, tt.want)
		}
	}
}

// TestEnteringKingInSearch checks that the search, not only the root,
// knows the entering-king rules: a try or a declaration one move away is
// found as a win, and a node after the opponent's try is lost.
func TestEnteringKingInSearch(t *testing.T) {
	tests := []struct {
		name string
		rule kifu.EnteringKingRule
		sfen string
		win  bool // the search's score is a win (else: not a win)
	}{
		// Black's king two steps from 5a: the try after any reply.
		{"try in two", kifu.RuleTry, "9/9/4K4/9/9/9/9/9/k8 b - 1", true},
		{"try in two, CSA rule", kifu.RuleCSA27, "9/9/4K4/9/9/9/9/9/k8 b - 1", false},
		// 25 points and 9 pieces in the camp: the horse back into the camp
		// gives 30 points and 10 pieces, and the declaration after the reply.
		{"declaration in two", kifu.RuleCSA27, "+L+NSGKGS+N+L/+R1P6/9/1+B7/9/9/9/6gsg/6s1k b 11P 1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := kifu.ParseSFEN(tt.sfen)
			if err != nil {
				t.Fatal(err)
			}
			s := newTestSearcher()
			s.EnteringKing = tt.rule
			s.RootMateNodes = 0
			res := s.Search(pos, Limits{MaxBudget: 6 * HalfCost}, nil)
			if win := res.Score >= eval.MateIn(eval.MaxPly); win != tt.win {
				t.Errorf("score %d (move %s), want a win: %v", res.Score, res.Move, tt.win)
			}
		})
	}
}

// TestRuleEndAfterTry checks the node after the opponent's try: under
// the try rule the side to move has lost; under the point rules the
// position is an ordinary one.
func TestRuleEndAfterTry(t *testing.T) {
	pos, err := kifu.ParseSFEN("K8/9/9/9/9/9/9/9/4k4 b - 1") // White's king on 5i, its try square
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSearcher()
	s.pos = pos
	for _, tt := range []struct {
		rule kifu.EnteringKingRule
		v    Value
		ok   bool
	}{{kifu.RuleTry, eval.MatedIn(3), true}, {kifu.RuleCSA27, 0, false}, {kifu.RuleNoEnteringKing, 0, false}} {
		s.EnteringKing = tt.rule
		if v, ok := s.ruleEnd(3); v != tt.v || ok != tt.ok {
			t.Errorf("%v: ruleEnd = %d, %v; want %d, %v", tt.rule, v, ok, tt.v, tt.ok)
		}
	}
}
