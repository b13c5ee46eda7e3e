package kifu

import "testing"

func TestCanDeclareWin(t *testing.T) {
	tests := []struct {
		name       string
		sfen       string
		declarer   Color // whose points are counted
		wantPoints int
		want       bool
	}{
		// Black: king on 5a, 10 more pieces in the camp (two big ones)
		// and 9 pawns in hand: 8 + 11 + 9 = 28 points, exactly enough.
		{"black 28 points", "+L+NSGKGS+N+L/+R+BP6/9/9/9/9/9/9/7k1 b 9P 1", Black, 28, true},
		{"black 27 points is one short", "+L+NSGKGS+N+L/+R+BP6/9/9/9/9/9/9/7k1 b 8P 1", Black, 27, false},
		{"not black's turn", "+L+NSGKGS+N+L/+R+BP6/9/9/9/9/9/9/7k1 w 9P 1", Black, 28, false},
		{"king outside the camp", "+L+NSG1GS+N+L/+R+BP6/9/4K4/9/9/9/9/7k1 b 9P 1", Black, 28, false},
		// Nine pieces besides the king: not enough, whatever the points.
		{"only nine pieces in the camp", "+L+NSGKGS2/+R+BP6/9/9/9/9/9/9/7k1 b B9P 1", Black, 31, false},
		// White needs 27: king on 5i with 10 pieces, 2 big: 8+11 + 8 = 27.
		{"white 27 points", "7K1/9/9/9/9/9/9/+r+bp6/+l+nsgkgs+n+l w 8p 1", White, 27, true},
		{"in check", "+L+NSGKGS+N+L/+R+BP6/4r4/9/9/9/9/9/7k1 b 9P 1", Black, 28, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseSFEN(tt.sfen)
			if err != nil {
				t.Fatal(err)
			}
			if pts, _ := p.DeclarationPoints(tt.declarer); pts != tt.wantPoints {
				t.Errorf("DeclarationPoints = %d, want %d", pts, tt.wantPoints)
			}
			if got := p.CanDeclareWin(); got != tt.want {
				t.Errorf("CanDeclareWin = %v, want %v", got, tt.want)
			}
		})
	}
}
