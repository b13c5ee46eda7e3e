package cra

import "github.com/rpshogi/rpshogi/kifu"

// Formations and development patterns of CRA's development and
// prevention classes (RelDevelop, RelAttackFormation, RelCastle).
// Patterns are written from Black's side (Black's camp is ranks 7 to 9,
// Black moves towards rank 1); for White every square is rotated by
// 180° (kifu.Square.Inverse), so "forward" always means towards the
// opponent.

// fr is a square written file*10+rank, as in Japanese notation (28 is
// 2h).
type fr uint8

func (x fr) square() kifu.Square { return kifu.NewSquare(int(x/10), int(x%10)) }

// formation is a castle or common defence formation: the king's square
// and the squares of its other pieces, by type.
type formation struct {
	name  string
	king  fr
	golds []fr
	silvs []fr
	pawns []fr
	other []fr // lances and knights
}

// formationList is every formation CRA recognises, each also mirrored
// (file f becomes 10-f) at init. The right-wing ones are the ranging-rook
// castles, the left-wing ones the static-rook castles.
var formationList = []formation{
	{name: "mino", king: 28, golds: []fr{49, 58}, silvs: []fr{38}, pawns: []fr{27, 37, 47}},
	{name: "high-mino", king: 28, golds: []fr{49, 47}, silvs: []fr{38}, pawns: []fr{27, 36, 46}},
	{name: "silver-crown", king: 28, golds: []fr{38, 49}, silvs: []fr{27}, pawns: []fr{26, 37}},
	{name: "anaguma", king: 19, golds: []fr{39, 38, 49}, silvs: []fr{28}, pawns: []fr{17, 27}, other: []fr{18}},
	{name: "yagura", king: 88, golds: []fr{78, 67}, silvs: []fr{77}, pawns: []fr{76, 66, 87, 96}, other: []fr{89, 99}},
	{name: "funagakoi", king: 78, golds: []fr{69, 58}, silvs: []fr{68, 57}, pawns: []fr{76, 66, 56}},
	{name: "elmo", king: 88, golds: []fr{78, 58}, silvs: []fr{79}, pawns: []fr{76, 87}},
	{name: "kani", king: 69, golds: []fr{78, 58}, silvs: []fr{68}, pawns: []fr{76, 66}},
	{name: "gangi", king: 69, golds: []fr{78, 58}, silvs: []fr{67, 57}, pawns: []fr{66, 56, 46}},
	{name: "nakazumai", king: 58, golds: []fr{48, 68}, silvs: []fr{38, 78}, pawns: []fr{}},
}

// formationSquares[i] holds, for formation i (mirrors included), its
// king's square and a bitboard of its squares per piece type (Black's
// side; White's are rotated).
type formationSquares struct {
	king kifu.Square
	by   [kifu.PieceTypeNB]kifu.Bitboard
}

var formations = func() []formationSquares {
	var out []formationSquares
	for _, f := range formationList {
		for mirror := range 2 {
			sq := func(x fr) kifu.Square {
				if mirror == 1 {
					x = fr(10-x/10)*10 + x%10
				}
				return x.square()
			}
			var fs formationSquares
			fs.king = sq(f.king)
			for _, x := range f.golds {
				fs.by[kifu.Gold] = fs.by[kifu.Gold].Set(sq(x))
			}
			for _, x := range f.silvs {
				fs.by[kifu.Silver] = fs.by[kifu.Silver].Set(sq(x))
			}
			for _, x := range f.pawns {
				fs.by[kifu.Pawn] = fs.by[kifu.Pawn].Set(sq(x))
			}
			for _, x := range f.other {
				fs.by[kifu.Lance] = fs.by[kifu.Lance].Set(sq(x))
				fs.by[kifu.Knight] = fs.by[kifu.Knight].Set(sq(x))
			}
			out = append(out, fs)
		}
	}
	return out
}()

// black returns sq seen from Black's side for color c.
func black(c kifu.Color, sq kifu.Square) kifu.Square {
	if c == kifu.White {
		return sq.Inverse()
	}
	return sq
}

// formationFeatures sets the formation features of the board move m
// (safe: SEE >= 0):
//
//   - FCastlePattern: a gold, silver, pawn, lance or knight, not
//     capturing or promoting, moves onto a square that a formation
//     assigns to its type, from a square that it does not, and our king
//     stands at most 2 king steps from that formation's king square;
//   - FCastleKing: the king, not in check, moves within our camp
//     (relative ranks 7 to 9) to a square nearer to a formation's king
//     square than its origin;
//   - FRookFileSafe/FRookFileLoss: a pawn, silver, knight or lance
//     (unpromoted after the move) advances on our rook's file or a file
//     next to it while our unpromoted rook stands on relative ranks 6 to
//     9 (棒銀, 早繰り銀, 桂跳ね, pawn pushes on the rook's file);
//   - FEdgePawn: a pawn advances on an edge file (1 or 9) when the
//     opponent's king is within 3 files of that edge (端攻め).
func (a *Analyzer) formationFeatures(m kifu.Move, fs *Features, safe bool) {
	us := a.us
	pt := m.Piece().Type()
	from, to := black(us, m.From()), black(us, m.To())
	if a.ourKing != kifu.NoSquare && !m.IsCapture() {
		king := black(us, a.ourKing)
		switch pt {
		case kifu.King:
			if !a.inCheck && to.Rank() >= 7 {
				for i := range formations {
					k := formations[i].king
					if distance(to, k) < distance(from, k) {
						*fs |= 1 << FCastleKing
						break
					}
				}
			}
		case kifu.Gold, kifu.Silver, kifu.Pawn, kifu.Lance, kifu.Knight:
			if m.IsPromotion() {
				break
			}
			for i := range formations {
				f := &formations[i]
				if f.by[pt].Has(to) && !f.by[pt].Has(from) && distance(king, f.king) <= 2 {
					*fs |= 1 << FCastlePattern
					break
				}
			}

		}
	}
	if to.Rank() >= from.Rank() || m.IsPromotion() {
		return // not advancing, or no longer a pawn, silver, knight or lance
	}
	switch pt {
	case kifu.Pawn, kifu.Silver, kifu.Knight, kifu.Lance:
	default:
		return
	}
	if a.rookFile != 0 {
		rf := black(us, kifu.NewSquare(a.rookFile, 5)).File()
		if d := to.File() - rf; d >= -1 && d <= 1 {
			if safe {
				*fs |= 1 << FRookFileSafe
			} else {
				*fs |= 1 << FRookFileLoss
			}
		}
	}
	if pt == kifu.Pawn && a.theirK != kifu.NoSquare {
		ef := black(us, a.theirK).File()
		if (to.File() == 1 && ef <= 4) || (to.File() == 9 && ef >= 6) {
			*fs |= 1 << FEdgePawn
		}
	}
}

// standardDevelopment reports whether the board move m is a standard
// development move of our camp (the FDevelop... features of RelDevelop;
// safe moves only, in any phase of the game), from Black's side:
//
//   - a pawn advancing from rank 7 to 6 or from 6 to 5;
//   - a silver or knight moving forward or sideways from our camp
//     (ranks 7 to 9) to ranks 5 to 8;
//   - a gold or the king moving within our camp (ranks 7 to 9), or a
//     gold to rank 6;
//   - a rook moving within ranks 6 to 9 (a ranging rook along rank 8, a
//     floating rook to rank 6);
//   - a bishop moving within ranks 6 to 9.
func (a *Analyzer) standardDevelopment(m kifu.Move) bool {
	us := a.us
	from, to := black(us, m.From()), black(us, m.To())
	fr, tr := from.Rank(), to.Rank()
	switch m.Piece().Type() {
	case kifu.Pawn:
		return (fr == 7 || fr == 6) && tr == fr-1
	case kifu.Silver, kifu.Knight:
		return fr >= 7 && tr <= fr && tr >= 5 && tr <= 8
	case kifu.Gold:
		return fr >= 7 && tr >= 6
	case kifu.King:
		return fr >= 7 && tr >= 7
	case kifu.Rook, kifu.Bishop:
		return fr >= 6 && tr >= 6
	}
	return false
}
