package evalfit

import (
	"math"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// TestLeafExchange checks that the comparisons on quiescence leaves play
// out the exchange a move starts: a move that leaves a piece en prise is
// compared (the static comparisons leave it out) and scored after the
// piece is taken; a capture is scored after the recapture.
func TestLeafExchange(t *testing.T) {
	// Black to move; 8h3c+ puts the horse where the knight (2a) or the
	// silver and gold can take it; 6g6f is quiet.
	open := "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"
	w := eval.HandPrior()
	for _, tt := range []struct {
		name, sfen, played, alt string
		// the alternative's material change at the leaf for the mover:
		// its pieces on the board, the opponent's bishops in hand
		wantOwn   map[kifu.PieceType]int
		wantHandB int
	}{
		{"loses the horse", open, "6g6f", "8h3c+", map[kifu.PieceType]int{kifu.Bishop: -1, kifu.Horse: 0}, 1},
		{"quiet", open, "6g6f", "2g2f", map[kifu.PieceType]int{kifu.Bishop: 0, kifu.Horse: 0}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pos := kifutest.MustSFEN(t, tt.sfen)
			played, err := pos.ParseUSIMove(tt.played)
			if err != nil {
				t.Fatal(err)
			}
			alt, err := pos.ParseUSIMove(tt.alt)
			if err != nil {
				t.Fatal(err)
			}
			alts := LeafAlternatives(pos, played, 1000, nil)
			k := -1
			for i, m := range alts {
				if m.Move16() == alt.Move16() {
					k = i
				}
			}
			if k < 0 {
				t.Fatalf("%v not among the %d alternatives", tt.alt, len(alts))
			}
			var buf [evalfeat.MaxActive]evalfeat.Feature
			parent := append([]evalfeat.Feature(nil), canonical(evalfeat.Append(pos, buf[:0]))...)
			d := &gameData{}
			d.appendLeafComparison(&leafSearcher{w: w}, pos, played, parent, 1000)
			if len(d.cgroup) != 1 || len(d.cmove) != len(alts)+1 {
				t.Fatalf("%d comparisons, %d moves; want 1 and %d", len(d.cgroup), len(d.cmove), len(alts)+1)
			}
			d.cmove = append(d.cmove, uint32(len(d.cfeats)))
			diff := map[int]int{}
			for _, f := range d.cfeats[d.cmove[k+1]:d.cmove[k+2]] {
				diff[int(f.ID)] += int(f.N)
			}
			for pt, n := range tt.wantOwn {
				// White's pieces count -1: a change of the mover's
				// (Black's) material is +n, and no White piece of these
				// types is on the board.
				if got := diff[evalfeat.MaterialID(pt)]; got != n {
					t.Errorf("material %s changes by %d at the leaf, want %d", pt.Name(), got, n)
				}
			}
			if got := diff[evalfeat.HandID(kifu.Bishop, 0)]; got != -tt.wantHandB {
				t.Errorf("first bishop in hand changes by %d (White's count -1), want %d", got, -tt.wantHandB)
			}
		})
	}
}

// TestLeafFeatures checks on real positions that a quiescence leaf's
// value is the evaluation of its features, no worse than standing pat,
// and that the comparisons on leaves give, under the weights that chose
// them, the leaf's evaluation minus the position's for the mover; the
// position is left unchanged.
func TestLeafFeatures(t *testing.T) {
	games, _ := proGames(t, 2)
	w := eval.HandPrior()
	eval := func(fs []evalfeat.Feature) float64 {
		z := 0.0
		for _, f := range fs {
			z += w[f.ID] * float64(f.N)
		}
		return z
	}
	s := &leafSearcher{w: w}
	var buf [evalfeat.MaxActive]evalfeat.Feature
	checked, deeper := 0, 0
	for _, g := range games {
		pos, err := kifu.ParseSFEN(g.StartSFEN)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range strings.Fields(g.Moves) {
			played, err := pos.ParseUSIMove(u)
			if err != nil {
				t.Fatal(err)
			}
			key := pos.Key()
			leaf, v := s.leafFeatures(pos, buf[:0])
			leafV := eval(leaf)
			if pos.SideToMove() == kifu.White {
				leafV = -leafV
			}
			if pos.Key() != key {
				t.Fatalf("%s: the position changed", pos.SFEN())
			}
			if math.Abs(leafV-v) > 1e-6 || v < s.eval(pos)-1e-6 {
				t.Fatalf("%s: leaf value %v, its features evaluate %v, stand pat %v", pos.SFEN(), v, leafV, s.eval(pos))
			}
			if v > s.eval(pos)+1e-6 {
				deeper++
			}
			parent := append([]evalfeat.Feature(nil), canonical(evalfeat.Append(pos, buf[:0]))...)
			d := &gameData{}
			d.appendLeafComparison(s, pos, played, parent, 8)
			if len(d.cgroup) == 1 {
				d.cmove = append(d.cmove, uint32(len(d.cfeats)))
				alts := LeafAlternatives(pos, played, 8, nil)
				for k, m := range append([]kifu.Move{played}, alts...) {
					pos.DoMove(m)
					lf, _ := s.leafFeatures(pos, buf[:0])
					want := eval(lf) - eval(parent)
					pos.UndoMove()
					if pos.SideToMove() == kifu.White {
						want = -want
					}
					if got := eval(d.cfeats[d.cmove[k]:d.cmove[k+1]]); math.Abs(got-want) > 1e-6 {
						t.Fatalf("%s, %v: comparison features give %v, leaf minus position %v", pos.SFEN(), m.USI(), got, want)
					}
				}
				checked++
			} else if !pos.InCheck() {
				t.Fatalf("%s: not in check and no comparison", pos.SFEN())
			}
			pos.DoMove(played)
		}
	}
	if checked < 100 || deeper == 0 {
		t.Fatalf("%d comparisons checked, %d leaves past the position", checked, deeper)
	}
}
