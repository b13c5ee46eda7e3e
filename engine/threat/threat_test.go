package threat

import (
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

func sq(t testing.TB, s string) kifu.Square {
	t.Helper()
	if s == "" {
		return kifu.NoSquare
	}
	q, ok := kifu.ParseSquare(s)
	if !ok {
		t.Fatalf("bad square %q", s)
	}
	return q
}

type want struct {
	kind       Kind
	by         kifu.Color
	s0, s1, s2 string
	value      int16
	strong     bool
}

// TestAnalyze checks every entry of real positions, worked out by hand
// (the comments give the reasoning; squares are USI).
func TestAnalyze(t *testing.T) {
	B, W := kifu.Black, kifu.White
	tests := []struct {
		name, sfen string
		endgame    bool
		want       []want // Black's, then White's, each strongest first
	}{{
		// WCSC28 U4 NVC-SHS, after 78 moves; Black in check from the
		// pawn on 7e.
		name:    "utf8_WCSC28_U4_NVC_SHS.csa@78",
		sfen:    "l5knl/2+b2ggs1/5p1pp/1+rP1p1P2/P1pp1G3/1SK1PB3/3P1SN1P/2G4R1/L7L b 2N6Ps 1",
		endgame: true, // 3 non-pawn pieces in hand (2N, s)
		want: []want{
			// Bishop 4f takes the undefended lance 9a: 3+3 units.
			{Material, B, "9a", "4f", "", 270, false},
			// 7d7c+: the horse takes the tokin (7), the bishop the horse
			// (18), the dragon the bishop: SEE 0, promotion 5+1 units.
			{Promotion, B, "7d", "7c", "", 270, false},
			// The pawn 9e moves and the lance 9i sees the undefended 9a.
			{Discovered, B, "9a", "9i", "9e", 270, false},
			// 4f9a+ (bishop: promotion 2+1 units).
			{Promotion, B, "4f", "9a", "", 135, false},
			// The king takes the pawn 6e, which nothing defends.
			{Material, B, "6e", "7f", "", 90, false},
			// Silver takes 7e, the dragon takes back, the king the dragon.
			{Material, B, "7e", "8f", "", 90, false},
			{Check, W, "7f", "7e", "", 5000, true},
			// 6f: one white attacker (pawn 6e) against the pawn 6g and
			// the king's recapture.
			{KingWeak, W, "7f", "6f", "", 100, false},
			// The dragon takes the undefended pawn 7d.
			{Material, W, "7d", "8d", "", 90, false},
			// The lance 9a pins the pawn 9e to the undefended lance 9i:
			// half a pawn's capture value.
			{Pin, W, "9e", "9i", "9a", 45, false},
		},
	}, {
		// A game of the Shogidokoro sample, after 65 moves.
		name:    "Shogidokoro.kif@65",
		sfen:    "lns5l/1r2gkg2/ppppppnpp/6P2/2S5P/2P1P1R2/PP1P2p+n+s/1BGK5/LNS5g w BLPp 1",
		endgame: true, // a strong king threat
		want: []want{
			// 3c: pawn 3d and bishop 8h against the gold 3b (the king
			// excluded): controlled; 400 + 50 per non-pawn piece in hand
			// (B, L).
			{KingStrong, B, "4b", "3c", "", 500, true},
			// P×N, G×P, B×G and the rook behind stops the king: +8 units.
			{Material, B, "3c", "3d", "", 360, false},
			{Promotion, B, "3d", "3c", "", 270, false},
			// 8h3c+: the gold takes the horse, the pawn takes the gold:
			// +4 units for Black, SEE >= 0.
			{Promotion, B, "8h", "3c", "", 135, false},
			// 3g3h+: nothing of Black covers 3h.
			{Promotion, W, "3g", "3h", "", 270, false},
			// The pawn 1c moves and the lance 1a sees the undefended 1e.
			{Discovered, W, "1e", "1a", "1c", 90, false},
		},
	}, {
		// 渡辺-小山 (2023-05-23), after 49 moves: a middle game, where
		// winning a pawn is a strong threat.
		name: "20230523渡辺小山.kif@49",
		sfen: "lr5nl/3g1kg2/2n1pp1p1/p1ppBsp1p/1p2s1PP1/P1PP1P2P/1PSSP1N2/1KG2G3/LN5RL w B 1",
		want: []want{
			// Bishop 5d takes the undefended rook 8a (6c, 7b empty).
			{Material, B, "8a", "5d", "", 900, true},
			{Promotion, B, "5d", "8a", "", 135, true},
			// 4c: the bishop against the gold 3b and the king.
			{KingWeak, B, "4b", "4c", "", 100, false},
			// The pawn 3e takes 3d, which nothing of White defends.
			{Material, B, "3d", "3e", "", 90, true},
			// The pawn 5c takes the bishop, which nothing defends.
			{Material, W, "5d", "5c", "", 720, true},
			{Material, W, "3e", "3d", "", 90, true},
			// The silver 5e takes 4f (the gold 4h does not cover it).
			{Material, W, "4f", "5e", "", 90, true},
		},
	}}
	var a Analyzer
	var set Set
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, tt.sfen)
			a.Analyze(pos, &set)
			var got []Threat
			got = append(got, set.Threats(B)...)
			got = append(got, set.Threats(W)...)
			if set.Endgame != tt.endgame {
				t.Errorf("Endgame = %v, want %v", set.Endgame, tt.endgame)
			}
			if len(got) != len(tt.want) {
				t.Errorf("%d threats, want %d", len(got), len(tt.want))
			}
			for i := range min(len(got), len(tt.want)) {
				w := tt.want[i]
				wt := Threat{Kind: w.kind, By: w.by, Sq: [3]kifu.Square{sq(t, w.s0), sq(t, w.s1), sq(t, w.s2)}, Value: w.value, Strong: w.strong}
				if got[i] != wt {
					t.Errorf("threat %d = %v, want %v", i, got[i], wt)
				}
			}
			if t.Failed() {
				for _, g := range got {
					t.Log(g)
				}
			}
		})
	}
}

// TestSEE compares Analyzer.SEE with categorize.SEE on every legal move of
// the test positions.
func TestSEE(t *testing.T) {
	var a Analyzer
	for _, s := range benchSFENs {
		pos := kifutest.MustSFEN(t, s)
		for _, m := range pos.LegalMoves() {
			if got, want := a.SEE(pos, m), categorize.SEE(pos, m); got != want {
				t.Errorf("%s %s: SEE %d, categorize.SEE %d", s, m.USI(), got, want)
			}
		}
	}
}

// TestHolds: Holds agrees with a full analysis on every threat of a
// position and of its parent, after every legal move of real positions
// and of random games from them (the threat quiescence search asks it
// instead of analysing each defending move in full).
func TestHolds(t *testing.T) {
	var a, b Analyzer
	var parent, child Set
	checked := 0
	for _, pos := range exchangePositions(t) {
		s := pos.SFEN()
		a.Analyze(pos, &parent)
		for _, m := range pos.GenerateMoves(kifu.Legal, nil) {
			pos.DoMove(m)
			a.Analyze(pos, &child)
			for _, set := range []*Set{&parent, &child} {
				for c := kifu.Black; c <= kifu.White; c++ {
					for _, th := range set.Threats(c) {
						want := child.Has(c, th.ID())
						if got := b.Holds(pos, th); got != want {
							t.Errorf("%s, %v: Holds(%v) = %v, the full analysis %v", s, m, th, got, want)
						}
						checked++
					}
				}
			}
			pos.UndoMove()
		}
	}
	if checked < 1000 {
		t.Errorf("only %d threats checked", checked)
	}
}
