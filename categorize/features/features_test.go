package features

import (
	"math"
	"math/bits"
	"sort"
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

func TestNamesDistinct(t *testing.T) {
	seen := make(map[string]int, NumFeatures())
	for id := range NumFeatures() {
		n := Name(id)
		if prev, ok := seen[n]; ok {
			t.Fatalf("features %d and %d are both named %q", prev, id, n)
		}
		seen[n] = id
	}
	for _, tc := range []struct {
		id   Feature
		want string
	}{
		{id1(tCat, 0), "cat=" + categorize.List()[0].Name},
		{id2(tKindToTheirK, int(kifu.Rook)-1, (1+8)*17+(-2+8)), "kind=R|to-their-king=(+1,-2)"},
		{id2(tKindTo, boardKindNB+int(kifu.Gold)-1, 0), "kind=G*|to=1a"},
		{id3(tKindToCounts, 0, 3, 1), "kind=P|to-attackers=3+|to-defenders=1"},
	} {
		if got := Name(int(tc.id)); got != tc.want {
			t.Errorf("Name(%d) = %q, want %q", tc.id, got, tc.want)
		}
	}
	if g := GroupOf(int(id1(tRank, 3))); g != GroupCRA {
		t.Errorf("GroupOf(rank) = %v, want cra", g)
	}
}

// samplePositions returns every step-th position of the corpus's
// professional games, set up from SFEN with their previous move.
func forEachPosition(tb testing.TB, step int, f func(pos *kifu.Position, played kifu.Move)) {
	k := 0
	for _, g := range kifutest.Games(tb, "pro") {
		kifutest.Positions(tb, g.Record, func(pos *kifu.Position, played kifu.Move) {
			if k++; k%step == 0 {
				f(pos, played)
			}
		})
	}
}

// TestAppend checks the features of every legal move of sample positions
// against their definitions: IDs strictly increasing (distinct, in
// template order), exactly one feature of every single-valued template
// (the origin ones for board moves only, the king-relative ones when the
// king is on the board), the categories those of categorize.Classify,
// the CRA features those of cra.Analyzer.
func TestAppend(t *testing.T) {
	var x Extractor
	var an cra.Analyzer
	var buf [MaxActive]Feature
	positions, moves := 0, 0
	forEachPosition(t, 13, func(pos *kifu.Position, played kifu.Move) {
		positions++
		x.Reset(pos, pos.LastMove())
		for _, m := range x.LegalMoves() {
			moves++
			ids := x.Append(m, buf[:0])
			if !sort.SliceIsSorted(ids, func(i, j int) bool { return ids[i] < ids[j] }) {
				t.Fatalf("%s %s: IDs not sorted: %v", pos.SFEN(), m.USI(), ids)
			}
			var per [tmplNB]int
			var cats categorize.Set
			var craBits uint64
			for i, f := range ids {
				if i > 0 && ids[i-1] == f {
					t.Fatalf("%s %s: feature %s twice", pos.SFEN(), m.USI(), Name(int(f)))
				}
				tp := templateOf(int(f))
				per[tp.id]++
				switch tp.id {
				case tCat:
					cats.Add(categorize.Category(int(f) - tp.base))
				case tCRA:
					craBits |= 1 << (int(f) - tp.base)
				}
			}
			if want := categorize.Classify(pos, pos.LastMove(), m); cats != want {
				t.Fatalf("%s %s: categories %v, want %v", pos.SFEN(), m.USI(), cats, want)
			}
			an.Reset(pos, pos.LastMove())
			a := an.Analyze(m)
			if want := uint64(a.Features); craBits != want {
				t.Fatalf("%s %s: CRA features %x, want %x", pos.SFEN(), m.USI(), craBits, want)
			}
			ncat, ncra := bits.OnesCount64(cats[0])+bits.OnesCount64(cats[1]), bits.OnesCount64(craBits)
			th := x.threats(m)
			ta := x.tactics(m, pos.GivesCheck(m), a.Rel.Has(cra.RelKingAttack), craMateThreat(&a))
			lf, lastOK := x.lastMove(m)
			for tt := range tmplNB {
				want := 1
				switch tt {
				case tThreatPinned:
					want = b2i(th.target != 0)
				case tDiscovered:
					want = b2i(th.disc != 0)
				case tHang, tKindHang, tHangCount:
					want = b2i(th.hang >= 0)
				case tKindExposed, tExposedCount:
					want = b2i(ta.nExposed > 0)
				case tKindLastAttack, tKindUnguarded, tKindCounter:
					want = b2i(lastOK)
				case tLastTarget:
					want = b2i(lf.target != 0)
				case tDropCount:
					want = b2i(m.IsDrop())
				case tKindMateThreat, tDangerMateThreat:
					want = b2i(ta.mateThreat >= 0)
				case tKindMateRespond, tDangerMateRespond:
					want = b2i(ta.mateRespond >= 0)
				case tCat, tPhaseCat:
					want = ncat
				case tCRA, tPhaseCRA, tTheirDangerCRA, tOurDangerCRA, tKindCRA, tSEECRA:
					want = ncra
				case tKindFromTheirK, tKindFromOurK, tKindPromote, tKindFromCounts, tKindFromLeastAtt, tKindFromLeastDef:
					if m.IsDrop() {
						want = 0
					}
				case tBookShare, tBookRank, tPhaseBookShare, tKindBookShare, tFormShare, tFormRank, tPhaseFormShare, tKindFormShare:
					want = 0 // no book
				case tKindMate, tTheirDangerMate:
					if !pos.GivesCheck(m) {
						want = 0
					}
				case tKindPattern:
					want = dirNB
				case tOpenKindTo:
					if pos.MoveNumber() > 30 {
						want = 0
					}
				}
				if per[tt] != want {
					t.Fatalf("%s %s: %d features of template %d, want %d", pos.SFEN(), m.USI(), per[tt], tt, want)
				}
			}
		}
	})
	t.Logf("%d positions, %d moves", positions, moves)
}

// refThreats computes the threat and hanging facts of the legal move m of
// pos by playing it: the moved piece's targets and the pieces newly
// attacked by our other pieces are read from the position after the move,
// as are the attackers and defenders of our hanging piece. Pins are those
// before the move, as defined.
func refThreats(pos *kifu.Position, m kifu.Move) (t threatFacts) {
	us, them := pos.SideToMove(), pos.SideToMove().Opp()
	value := func(pt kifu.PieceType) int { return categorize.BoardValue(pt) }
	least := func(p *kifu.Position, b kifu.Bitboard) int {
		v := 1 << 20
		for _, s := range b.Squares() {
			v = min(v, value(p.PieceAt(s).Type()))
		}
		return v
	}
	hanging := func(p *kifu.Position, s kifu.Square) bool {
		att := p.AttackersTo(them, s, p.Occupied())
		return att.Any() && (!p.AttackersTo(us, s, p.Occupied()).Any() || least(p, att) < value(p.PieceAt(s).Type()))
	}
	// Our most valuable hanging piece before the move.
	h, hv := kifu.NoSquare, 0
	for _, s := range pos.Pieces(us).Squares() {
		if pt := pos.PieceAt(s).Type(); pt != kifu.King && hanging(pos, s) && value(pt) > hv {
			h, hv = s, value(pt)
		}
	}
	pinned := pos.Pinned(them)
	occ0 := pos.Occupied()
	hAtt := pos.AttackersTo(them, h, occ0)
	pos.DoMove(m)
	defer pos.UndoMove()
	to := m.To()
	occ := pos.Occupied()
	pc := pos.PieceAt(to)
	mv := value(pc.Type())
	bestKey := -1
	for _, s := range kifu.Attacks(pc, to, occ).And(pos.Pieces(them)).Squares() {
		pt := pos.PieceAt(s).Type()
		if pt == kifu.King {
			t.check = 1
			t.nWorthy++
			continue
		}
		w := b2i(value(pt) > mv || !pos.AttackersTo(them, s, occ).Any())
		t.nWorthy += w
		if key := w<<8 | categorize.CaptureValue(pt); key > bestKey {
			bestKey, t.target, t.worthy, t.pinned = key, int(pt), w, b2i(pinned.Has(s))
		}
	}
	bestKey = -1
	for _, s := range pos.Pieces(us).Squares() {
		if s == to {
			continue
		}
		sp := pos.PieceAt(s)
		nw := kifu.Attacks(sp, s, occ).AndNot(kifu.Attacks(sp, s, occ0)).And(pos.Pieces(them))
		for _, sq := range nw.Squares() {
			pt := pos.PieceAt(sq).Type()
			if pt == kifu.King {
				continue
			}
			w := b2i(value(pt) > value(sp.Type()) || !pos.AttackersTo(them, sq, occ).Any())
			if key := w<<8 | categorize.CaptureValue(pt); key > bestKey {
				bestKey, t.disc, t.discWorthy = key, int(pt), w
			}
		}
	}
	t.hang = -1
	switch {
	case h == kifu.NoSquare:
	case !m.IsDrop() && m.From() == h:
		t.hang = hangMoved
	case m.IsCapture() && hAtt.Has(to):
		t.hang = hangCaptures
	case hanging(pos, h):
		t.hang = hangStill
	default:
		t.hang = hangSaved
	}
	return t
}

// TestThreats checks the threat and hanging facts of every legal move of
// sample positions (computed without playing the move) against refThreats
// (the move played), and that each kind of fact occurs.
func TestThreats(t *testing.T) {
	var x Extractor
	var seen [8]int
	forEachPosition(t, 17, func(pos *kifu.Position, played kifu.Move) {
		x.Reset(pos, pos.LastMove())
		for _, m := range x.LegalMoves() {
			got := x.threats(m)
			want := refThreats(pos, m)
			if got != want {
				t.Fatalf("%s %s: threats %+v, want %+v", pos.SFEN(), m.USI(), got, want)
			}
			seen[0] += b2i(got.worthy == 1)
			seen[1] += b2i(got.nWorthy >= 2)
			seen[2] += b2i(got.pinned == 1)
			seen[3] += b2i(got.disc != 0)
			for o := range hangOutcomeNB {
				seen[4+o] += b2i(got.hang == o)
			}
		}
	})
	for i, n := range seen {
		if n == 0 {
			t.Errorf("fact %d never seen: %v", i, seen)
		}
	}
	t.Logf("worthy, forks, pinned, discovered, hanging moved/captures/still/saved: %v", seen)
}

func TestProbabilitiesAndAllocs(t *testing.T) {
	w := make([]float32, NumFeatures())
	for i := range w {
		w[i] = float32(math.Sin(float64(i))) // any fixed weights
	}
	var x Extractor
	var p [kifu.MaxMoves]float64
	forEachPosition(t, 97, func(pos *kifu.Position, played kifu.Move) {
		x.Reset(pos, pos.LastMove())
		ps := x.Probabilities(x.LegalMoves(), w, p[:])
		sum := 0.0
		for _, v := range ps {
			if !(v > 0) {
				t.Fatalf("%s: probability %v", pos.SFEN(), v)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("%s: probabilities sum to %v", pos.SFEN(), sum)
		}
		if a := testing.AllocsPerRun(3, func() {
			x.Reset(pos, pos.LastMove())
			x.Probabilities(x.LegalMoves(), w, p[:])
		}); a != 0 {
			t.Fatalf("%s: %v allocations per position", pos.SFEN(), a)
		}
	})
}
