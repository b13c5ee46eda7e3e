package kifu

import (
	"strings"
	"testing"
)

// playUSI plays space-separated USI moves on p, failing the test on an
// illegal one.
func playUSI(t *testing.T, p *Position, moves string) {
	t.Helper()
	for _, s := range strings.Fields(moves) {
		m, err := p.ParseUSIMove(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		p.DoMove(m)
	}
}

func TestRepetition(t *testing.T) {
	// Both sides shuffle a gold back and forth: the start position comes
	// back after every 4 plies.
	shuffle := "6i6h 4a4b 6h6i 4b4a"
	tests := []struct {
		name   string
		sfen   string
		moves  string
		n      int
		want   RepetitionState
		wantAt int // the moves are played up to this ply
		quiet  int // no repetition is expected before this ply (0: wantAt)
	}{
		{"draw by fourfold repetition", StartSFEN, strings.Repeat(shuffle+" ", 3), 4, RepetitionDraw, 12, 0},
		{"twofold for search", StartSFEN, shuffle, 2, RepetitionDraw, 4, 0},
		{
			// Black's rook checks White's king from 3c and 2c in turn; the
			// king steps between 3a and 2a. After 12 plies Black, the side
			// to move, has checked with every move since the first
			// occurrence: Black loses.
			"perpetual check by the side to move",
			"6k2/9/7R1/9/9/9/9/9/K8 b - 1",
			strings.Repeat("2c3c 3a2a 3c2c 2a3a ", 3),
			4, RepetitionLoss, 12, 0,
		},
		{
			// One ply later the fourth occurrence is a White-to-move
			// position: White wins.
			"perpetual check by the opponent",
			"6k2/9/7R1/9/9/9/9/9/K8 b - 1",
			strings.Repeat("2c3c 3a2a 3c2c 2a3a ", 3) + "2c3c",
			4, RepetitionWin, 13, 12,
		},
		{
			// The same shuffle where one rook move does not check (the
			// rook goes to 4c): an ordinary draw.
			"not every move checks",
			"6k2/9/7R1/9/9/9/9/9/K8 b - 1",
			strings.Repeat("2c4c 3a2a 4c2c 2a3a ", 3),
			4, RepetitionDraw, 12, 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseSFEN(tt.sfen)
			if err != nil {
				t.Fatal(err)
			}
			quiet := tt.quiet
			if quiet == 0 {
				quiet = tt.wantAt
			}
			for i, s := range strings.Fields(tt.moves) {
				if got := p.Repetition(tt.n); i < quiet && got != NoRepetition {
					t.Fatalf("after %d plies: %v, want no repetition yet", i, got)
				}
				m, err := p.ParseUSIMove(s)
				if err != nil {
					t.Fatalf("%s: %v", s, err)
				}
				p.DoMove(m)
				if i+1 == tt.wantAt {
					break
				}
			}
			if got := p.Repetition(tt.n); got != tt.want {
				t.Errorf("Repetition(%d) = %v, want %v", tt.n, got, tt.want)
			}
		})
	}
}
