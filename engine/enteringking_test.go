package engine

import (
	"testing"
	"time"
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
