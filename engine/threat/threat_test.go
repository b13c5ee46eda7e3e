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
			// No discovered attack by the pawn 9e: it moves to 9d, still
			// between the lance 9i and the lance 9a (issue 17: this entry
			// was listed before, a threat that cannot be executed).
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
			// No discovered attack by the pawn 1c: it moves to 1d, still
			// between the lance 1a and the pawn 1e.
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

// TestDiscoveredNeedsAMoveOff: a discovered attack is a threat only when
// the blocker can step off the slider's line. Positions of problems of
// data/tactics/problems.tsv where the threat quiescence search lost the
// solution that the ordinary one found (issue 17): a pawn or lance between
// a rook, dragon or lance and its target on their file only moves along
// it, and these "threats" (a 3,000 cp discovered check among them) made
// the defender pay for a threat that cannot be executed.
func TestDiscoveredNeedsAMoveOff(t *testing.T) {
	B, W := kifu.Black, kifu.White
	tests := []struct {
		name, sfen string
		th         want
		listed     bool
	}{
		// 2010.9.30山岸中川 @71: Black's pawn 2d between the rook 2h and
		// the king 2b (2d2c checks by the pawn itself, not by the rook).
		{"山岸中川@71 pawn 2d", "l+R3s1nl/5ggk1/2bp1s3/p1p2ppPp/1p2s4/2PP1NP1P/PPSG1PN2/1KG4RL/LN1b5 w P2p 1",
			want{Discovered, B, "2b", "2h", "2d", 3000, true}, false},
		// gps-bingo (wcsc19) @85: the same with the rook on 2f.
		{"gps-bingo@85 pawn 2d", "ln5nl/3b1ggks/p1pp5/3g1P1P1/4P1S1p/5S1R1/P+rBP1KN1P/5G3/LN6L w S3P5p 1",
			want{Discovered, B, "2b", "2f", "2d", 3000, true}, false},
		// 24.11.13道又大桃 @95: Black's pawn 9e between the lance 9h and
		// the rook 9c.
		{"道又大桃@95 pawn 9e", "l7l/6gk1/r4gsp1/1N+B3psp/PpPng4/2Np1PPPP/1P7/LKGB2R1L/1N7 w 6P2s 1",
			want{Discovered, B, "9c", "9h", "9e", 900, true}, false},
		// WCSC28 U4 GPS-QHA @94: White's pawn 1c between the lance 1a
		// and the bishop 1f.
		{"GPS-QHA@94 pawn 1c", "ln5+Pl/1r2s4/p2kpg2p/1Npp1pP2/2S6/5S2B/PPPPPP2P/2GK5/1+b2G3L b GPrs2nl2p 1",
			want{Discovered, W, "1f", "1a", "1c", 720, true}, false},
		// 20210617小林高橋 @111: the pawn 4d steps off the bishop 7g's
		// diagonal onto 4c and uncovers the knight 3c (undefended).
		{"小林高橋@111 pawn off a diagonal", "k1g1b4/lsg1Pr2l/1pn1+P1np1/p1SP1P2p/1PP3pP1/P1S2s2P/1GB6/1KG6/LN6L w 3Prnp 1",
			want{Discovered, B, "3c", "7g", "4d", 360, true}, true},
		// 2011.7.15小山成田 @94: the lance 7c leaves the horse 6d's
		// diagonal and uncovers the gold 8b.
		{"小山成田@94 lance off a diagonal", "3g4+R/1+L1k5/2lgp1B1p/1p1+bs1p2/l2p4P/PPn1S1P2/S1NPG4/1KG1P4/5+r2L b S3P2n4p 1",
			want{Discovered, W, "8b", "6d", "7c", 405, true}, true},
	}
	var a Analyzer
	var set Set
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, tt.sfen)
			a.Analyze(pos, &set)
			w := tt.th
			wt := Threat{Kind: w.kind, By: w.by, Sq: [3]kifu.Square{sq(t, w.s0), sq(t, w.s1), sq(t, w.s2)}, Value: w.value, Strong: w.strong}
			found := false
			for _, g := range set.Threats(w.by) {
				if g == wt {
					found = true
				}
			}
			if found != tt.listed {
				t.Errorf("%v listed = %v, want %v; threats %v", wt, found, tt.listed, set.Threats(w.by))
			}
			if got := a.Holds(pos, wt); got != tt.listed {
				t.Errorf("Holds(%v) = %v, want %v", wt, got, tt.listed)
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
