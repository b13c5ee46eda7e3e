package evalfeat

import (
	"maps"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// flipSFEN returns the SFEN of p with the colours exchanged: the board
// rotated 180°, each piece given to the other side, the hands exchanged
// and the other side to move.
func flipSFEN(tb testing.TB, sfen string, mirror bool) string {
	f := strings.Fields(sfen)
	rows := strings.Split(f[0], "/")
	swap := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			switch {
			case r >= 'a' && r <= 'z':
				b.WriteRune(r - 'a' + 'A')
			case r >= 'A' && r <= 'Z':
				b.WriteRune(r - 'A' + 'a')
			default:
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	// tokens of a row: "+P", "p", "3", ...
	rev := func(row string) string {
		var toks []string
		for i := 0; i < len(row); i++ {
			if row[i] == '+' {
				toks = append(toks, row[i:i+2])
				i++
				continue
			}
			toks = append(toks, row[i:i+1])
		}
		var b strings.Builder
		for i := len(toks) - 1; i >= 0; i-- {
			b.WriteString(toks[i])
		}
		return b.String()
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		if mirror {
			out[i] = rev(r)
		} else {
			out[len(rows)-1-i] = swap(rev(r))
		}
	}
	side, hand := f[1], f[2]
	if !mirror {
		side = map[string]string{"b": "w", "w": "b"}[side]
		if hand != "-" {
			hand = swap(hand)
		}
	}
	return strings.Join(out, "/") + " " + side + " " + hand + " 1"
}

func multiset(fs []Feature, sign int16) map[uint16]int {
	m := map[uint16]int{}
	for _, f := range fs {
		m[f.ID] += int(f.N * sign)
		if m[f.ID] == 0 {
			delete(m, f.ID)
		}
	}
	return m
}

var testSFENs = []string{
	"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
	"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
	"8k/9/9/9/9/9/9/9/K8 b RB2G2S2N2L9Pb2g2s2n2l9p 1",
	"ln1g3nl/1r1s1kg2/p1pppp1pp/6p2/1p5P1/2P6/PPSPPPP1P/2G4R1/LN2KGSNL b Bb 1",
}

// TestSymmetry checks that the evaluation features treat both colours
// alike (a position with the colours exchanged has the same features with
// the opposite counts) and both wings alike (a mirrored position has the
// same features), on test positions and, with the shared corpus, on the
// positions of real games.
func TestSymmetry(t *testing.T) {
	check := func(t *testing.T, sfen string) {
		t.Helper()
		p := kifutest.MustSFEN(t, sfen)
		a := multiset(Append(p, nil), 1)
		for _, mirror := range []bool{false, true} {
			q := kifutest.MustSFEN(t, flipSFEN(t, p.SFEN(), mirror))
			sign := int16(-1)
			if mirror {
				sign = 1
			}
			if b := multiset(Append(q, nil), sign); !maps.Equal(a, b) {
				t.Fatalf("%s (mirror %v): features differ from %s", q.SFEN(), mirror, sfen)
			}
		}
	}
	for _, s := range testSFENs {
		check(t, s)
	}
	t.Run("corpus", func(t *testing.T) {
		games := kifutest.Games(t, "pro")
		for _, g := range games[:min(len(games), 10)] {
			kifutest.Positions(t, g.Record, func(pos *kifu.Position, _ kifu.Move) { check(t, pos.SFEN()) })
		}
	})
}

// TestBounds checks that every feature ID is in range and named, that
// Append stays within MaxActive on a position with everything in hand
// and on real games, and that it allocates nothing.
func TestBounds(t *testing.T) {
	names := map[string]int{}
	for id := range NumFeatures() {
		n := Name(id)
		if strings.HasPrefix(n, "invalid") || strings.Contains(n, "?") {
			t.Errorf("feature %d: name %q", id, n)
		}
		if o, ok := names[n]; ok {
			t.Errorf("features %d and %d are both named %q", o, id, n)
		}
		names[n] = id
	}
	check := func(pos *kifu.Position) {
		fs := Append(pos, nil)
		if len(fs) > MaxActive {
			t.Fatalf("%s: %d features", pos.SFEN(), len(fs))
		}
		for _, f := range fs {
			if int(f.ID) >= NumFeatures() || f.N == 0 {
				t.Fatalf("%s: feature %+v", pos.SFEN(), f)
			}
		}
	}
	for _, s := range testSFENs {
		check(kifutest.MustSFEN(t, s))
	}
	p := kifutest.MustSFEN(t, testSFENs[1])
	buf := make([]Feature, 0, MaxActive)
	if n := testing.AllocsPerRun(100, func() { buf = Append(p, buf[:0]) }); n != 0 {
		t.Errorf("Append allocates %v times", n)
	}
	t.Run("corpus", func(t *testing.T) {
		for _, g := range kifutest.Games(t, "pro") {
			kifutest.Positions(t, g.Record, func(pos *kifu.Position, _ kifu.Move) { check(pos) })
		}
	})
}

// TestZoneThreatFeatures checks the king-zone and threat groups on
// positions built for them: the count of each named feature (Black +1,
// White -1) among the position's features.
func TestZoneThreatFeatures(t *testing.T) {
	ids := map[string]int{}
	for id := range NumFeatures() {
		ids[Name(id)] = id
	}
	for _, tt := range []struct {
		name, sfen string
		want       map[string]int
	}{
		{
			// Black to move: its silver on 5e is attacked by White's
			// pawn on 5d (a cheaper piece) though its pawn on 5f defends
			// it; the pawn on 5d is attacked by the silver and
			// undefended; Black's horse on 2a is attacked by nothing.
			name: "silver attacked by a pawn",
			sfen: "4k2+B1/9/9/4p4/4S4/4P4/9/9/4K4 b - 1",
			want: map[string]int{"threat/silver/to-move1": 1, "threat/count1/to-move1": 1,
				"threat/pawn/to-move0": -1, "threat/count1/to-move0": -1, "threat/horse/to-move1": 0, "threat/pawn/to-move1": 0},
		},
		{
			// White to move: two golds facing each other, both
			// undefended.
			name: "undefended golds",
			sfen: "4k4/9/9/4g4/4G4/9/9/9/4K4 w - 1",
			want: map[string]int{"threat/gold/to-move0": 1, "threat/gold/to-move1": -1, "threat/count1/to-move0": 1,
				"threat/count1/to-move1": -1},
		},
		{
			// A rook defended by a gold and attacked by a dragon (not a
			// cheaper class) is not threatened; the undefended dragon
			// attacked by the rook is.
			name: "rook against dragon",
			sfen: "8k/9/9/9/1+r2R4/4G4/9/9/K8 b - 1",
			want: map[string]int{"threat/rook/to-move1": 0, "threat/dragon/to-move0": -1, "threat/count0/to-move1": 1},
		},
		{
			// White to move: Black's bishop on 5e and gold on 4e, both
			// defended by pawns, are attacked by White's silver on 5d
			// (a cheaper class than the bishop, the gold's own class).
			name: "bishop and gold attacked by a silver",
			sfen: "4k4/9/9/4s4/4BG3/4PP3/9/9/4K4 w - 1",
			want: map[string]int{"threat/bishop/to-move0": 1, "threat/gold/to-move0": 0, "threat/count1/to-move0": 1},
		},
		{
			// Black to move; White's king on 5a. Black's rook on 5e
			// pins White's pawn on 5c; Black's bishop on 9e reaches 5a
			// through 8d, 7c and 6b, where it pins White's silver (both
			// White's features: -1); Black's lance on 1i is on another
			// file. White's horse on 5h checks Black's king on 5i (+1).
			name: "lines",
			sfen: "4k4/3s5/4p4/9/B3R4/9/9/4+b4/4K3L b - 1",
			want: map[string]int{"line/rook/pin": -1, "line/bishop/pin": -1, "line/horse/check": 1,
				"line/lance/check": 0, "line/lance/pin": 0, "line/lance/two": 0},
		},
		{
			// Black to move; White has a gold and two pawns in hand;
			// Black's king on 5i, White's silver on 4g attacks 5h
			// (holding a Black gold) and 4h (empty: one weak square).
			// Black's king escapes to 6h, 4i, 6i (not attacked, not
			// own): 3 escapes with Black to move; White's king on 5a
			// has 5 (5b, 4b, 6b, 4a, 6a) with Black to move.
			name: "drops and escapes",
			sfen: "4k4/9/9/9/9/9/5s3/4G4/4K4 b g2p 1",
			want: map[string]int{"drop/gold/weak1": 1, "drop/pawn/weak1": 1, "drop/gold/weak0": 0,
				"escape/3/enemy-to-move0": 1, "escape/5/enemy-to-move1": -1,
				"excess-tm/0": -1, "excess-tm/1": 0},
		},
		{
			// Black to move. White's king on 5a: Black's pawns on 5g
			// and 4g, none on 6 (files of the enemy king and next);
			// White's pawns on 5c and 6c. Black's king on 5i: the same
			// files seen from White (its pawns 5c, 6c; Black's 5g, 4g).
			// Black has a pawn in hand, White none.
			name: "pawn files",
			sfen: "4k4/9/3pp4/9/9/9/4PP3/9/4K4 b P 1",
			want: map[string]int{
				// Black around White's king: 5 own+enemy, 4 own, 6 enemy; hand 1
				"pawn-file/enemy-king/file/own1/enemy1/hand1": 1,
				"pawn-file/enemy-king/file/own1/enemy1/hand0": -1,
				"pawn-file/enemy-king/next/own1/enemy0/hand1": 1,
				"pawn-file/enemy-king/next/own0/enemy1/hand1": 1,
				// White around Black's king (hand 0: White has none):
				// 5 own+enemy, 6 own, 4 enemy
				"pawn-file/enemy-king/next/own1/enemy0/hand0": -1,
				"pawn-file/enemy-king/next/own0/enemy1/hand0": -1,
				// Black around its own king (White's hand: 0) and White
				// around its own (Black's hand: 1)
				"pawn-file/own-king/file/own1/enemy1/hand0": 1,
				"pawn-file/own-king/file/own1/enemy1/hand1": -1,
			},
		},
		{
			// Black's king on 5i, its gold in front on 5h; White's
			// silver on 4g attacks 5h and 4h.
			name: "zone",
			sfen: "4k4/9/9/9/9/9/5s3/4G4/4K4 b - 1",
			want: map[string]int{
				// 5h: own gold, one attacker, no defender but the king
				"zone/front/own/a1/d0": 1,
				// 4h: empty, one attacker, defended by the gold
				"zone/side-front/empty/a1/d1": 1,
				// 6h, 4i, 6i: empty, not attacked (+1, +2); White's king
				// on 5a has 5b, 4b, 6b, 4a, 6a so (-1, -2, -2)
				"zone/side-front/empty/a0/d0": 1 - 2,
				"zone/side/empty/a0/d0":       0, // 2 - 2
				"zone/front/empty/a0/d0":      -1,
				"zone-att/silver":             1,
				"zone-att/attackers1":         1,
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := kifutest.MustSFEN(t, tt.sfen)
			got := map[int]int{}
			for _, f := range Append(p, nil) {
				got[int(f.ID)] += int(f.N)
			}
			for name, n := range tt.want {
				id, ok := ids[name]
				if !ok {
					t.Fatalf("no feature %q", name)
				}
				if got[id] != n {
					t.Errorf("%s: count %d, want %d", name, got[id], n)
				}
			}
		})
	}
}
