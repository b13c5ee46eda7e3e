package kifu

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Positions of the rule tables. Each is a possible game position; the
// comments name the pieces the cases below use.
const (
	// After 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c (a pawn
	// exchange on file 2): Black holds a pawn and has none on file 2,
	// where White has one on 2c.
	posExchange = "startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c"
	// Black has made a tokin (と) on 3c and has no pawn on file 3.
	posTokin = "lnsgkgsnl/1r5b1/pppppp+Ppp/9/9/9/PPPPPP1PP/1B5R1/LNSGKGSNL b P 1"
	// An endgame with every hand piece in Black's hand; Black has no pawn
	// on file 3 (White has one on 3d), White's king is on 2b.
	posDrops = "l6n1/4g2k1/p1ppp1sp1/6p1p/9/2P1P4/PP1P1P1PP/1SG4R1/LNK3SNL b RBGSNLPbg2p 1"
	// The same with White to move (White holds a bishop, a gold, 2 pawns).
	posDropsWhite = "l6n1/4g2k1/p1ppp1sp1/6p1p/9/2P1P4/PP1P1P1PP/1SG4R1/LNK3SNL w RBGSNLPbg2p 1"
	// Black pieces deep in White's camp: pawn 6b, silver 6c, gold 5c,
	// knights 3d and 8e, lance 1d, tokin 2f, bishop 9i.
	posPromote = "kn7/pg1P5/1p1SG4/6N1L/1N7/7+P1/9/9/B3K4 b - 1"
	// Black's king 5i with three pinned pieces: gold 5h (by the lance 5a,
	// along the file), silver 6h (by the bishop 9e), gold 4i (by the rook
	// 1i). White's knight 3f covers 4h.
	posPins = "4l3k/9/9/9/b8/6n2/9/3SG4/4KG2r b - 1"
	// Black's pawns 7g (pinned by the bishop 8f) and 5e (pinned by the
	// rook 5a along the file).
	posPawnPins = "4r3k/9/9/9/4P4/1b7/2P6/9/4K4 b - 1"
	// Black's king 5h in check from the rook 5c; Black holds a gold.
	posCheck = "3gk4/9/4r4/9/9/9/2P6/3GK4/5S3 b G 1"
	// Black's king 5i in double check from the rook 5a and the bishop 1e.
	posDoubleCheck = "k3r4/9/9/7S1/8b/9/9/3G5/4K4 b - 1"
	// Black's lance 5i behind its silver 5f aims at White's king 5a.
	posDiscover = "4k4/9/9/9/9/4S4/9/9/4L3K b - 1"
)

// Pawn-drop-mate (打ち歩詰め) positions: White's king 5a cannot step to
// 4a/6a (its own knights) and a pawn on 5b would check it.
const (
	// Black's gold 5c defends 5b and covers 4b and 6b: P*5b is mate.
	posUchi = "3nkn3/9/4G4/9/9/9/9/9/4K4 b GP 1"
	// As posUchi, but the pawn is on 5c and the gold on 4c, the silver 7c
	// covering 6b: pushing the pawn to 5b mates.
	posUchiPush = "3nkn3/9/2S1PG3/9/9/9/9/9/4K4 b P 1"
	// Nothing covers 4a/6a: the king escapes.
	posUchiEscape = "4k4/9/4G4/9/9/9/9/9/4K4 b P 1"
	// Knights 3d and 7d cover 4b and 6b but nothing defends 5b: the king
	// takes the pawn.
	posUchiKingTakes = "3nkn3/9/9/2N3N2/9/9/9/9/4K4 b P 1"
	// White's gold 4a could take the pawn but is pinned along rank a by
	// the rook 2a.
	posUchiPinnedRank = "3nkg1R1/9/4G4/9/9/9/9/9/4K4 b P 1"
	// The same gold, not pinned, takes the pawn.
	posUchiGoldTakes = "3nkg3/9/4G4/9/9/9/9/9/4K4 b P 1"
	// White's gold 6b could take the pawn but is pinned by the bishop 8d.
	posUchiPinnedDiag = "3nkn3/3g5/4G4/1B7/9/9/9/9/4K4 b P 1"
	// White's gold 5c is pinned by the lance 5g along file 5, so it may
	// take a pawn on 5b (staying on the line); the silvers 4c and 6c cover
	// 4b, 6b and 5b.
	posUchiPinnedFile = "3nkn3/9/3SgS3/9/9/9/4L4/9/4K4 b P 1"
	// A tsume-style position: Black has no king.
	posUchiNoKing = "3nkn3/9/4G4/9/9/9/9/9/9 b P 1"
	// The cornered king of testdata/perft.txt: P*1b is mate.
	posUchiCorner = "7lk/9/8S/9/9/9/9/7L1/8K b P 1"
)

type ruleCase struct {
	name string
	pos  string // SFEN, or a USI position ("startpos moves ...")
	move string // USI
	want IllegalMoveKind
	// check is, for a legal move, whether it gives check: +1 yes, -1 no,
	// 0 not asserted.
	check int
}

var ruleCases = []ruleCase{
	// Nifu (二歩).
	{"ng/nifu", posExchange, "P*5e", IllegalNifu, 0},
	{"ng/nifu-own-pawn-far-away", posDrops, "P*9e", IllegalNifu, 0},
	{"ok/nifu-opponent-pawn-on-file", posExchange, "P*2e", LegalMove, -1},
	{"ok/nifu-opponent-pawn-on-file-2", posDrops, "P*3e", LegalMove, -1},
	{"ok/nifu-tokin-on-file", posTokin, "P*3e", LegalMove, -1},
	{"ng/nifu-tokin-position", posTokin, "P*4e", IllegalNifu, 0},
	{"ng/nifu-white", posDropsWhite, "P*5e", IllegalNifu, 0},
	{"ok/nifu-white-free-file", posDropsWhite, "P*4e", LegalMove, -1},

	// Uchifuzume (打ち歩詰め).
	{"ng/uchifuzume", posUchi, "P*5b", IllegalUchifuzume, 0},
	{"ng/uchifuzume-corner", posUchiCorner, "P*1b", IllegalUchifuzume, 0},
	{"ng/uchifuzume-no-own-king", posUchiNoKing, "P*5b", IllegalUchifuzume, 0},
	{"ng/uchifuzume-defender-pinned-on-rank", posUchiPinnedRank, "P*5b", IllegalUchifuzume, 0},
	{"ng/uchifuzume-defender-pinned-on-diagonal", posUchiPinnedDiag, "P*5b", IllegalUchifuzume, 0},
	{"ok/gold-drop-mate", posUchi, "G*5b", LegalMove, 1},
	{"ok/pawn-push-mate", posUchiPush, "5c5b", LegalMove, 1},
	{"ok/pawn-push-mate-promoting", posUchiPush, "5c5b+", LegalMove, 1},
	{"ng/pawn-push-position-nifu", posUchiPush, "P*5b", IllegalNifu, 0},
	{"ok/pawn-drop-check-king-escapes", posUchiEscape, "P*5b", LegalMove, 1},
	{"ok/pawn-drop-check-king-takes", posUchiKingTakes, "P*5b", LegalMove, 1},
	{"ok/pawn-drop-check-gold-takes", posUchiGoldTakes, "P*5b", LegalMove, 1},
	{"ok/pawn-drop-check-pinned-on-file-takes", posUchiPinnedFile, "P*5b", LegalMove, 1},
	{"ok/pawn-drop-no-check", posUchi, "P*4b", LegalMove, -1},

	// Dead pieces (行き所のない駒).
	{"ng/dead-pawn-drop-last-rank", posDrops, "P*3a", IllegalDeadPiece, 0},
	{"ng/dead-lance-drop-last-rank", posDrops, "L*1a", IllegalDeadPiece, 0},
	{"ng/dead-knight-drop-last-rank", posDrops, "N*5a", IllegalDeadPiece, 0},
	{"ng/dead-knight-drop-second-rank", posDrops, "N*4b", IllegalDeadPiece, 0},
	{"ng/dead-white-pawn-drop-last-rank", posDropsWhite, "P*4i", IllegalDeadPiece, 0},
	{"ok/pawn-drop-second-rank", posDrops, "P*3b", LegalMove, -1},
	{"ok/lance-drop-second-rank", posDrops, "L*1b", LegalMove, -1},
	{"ok/knight-drop-third-rank", posDrops, "N*4c", LegalMove, -1},
	{"ok/white-pawn-drop-second-rank", posDropsWhite, "P*4h", LegalMove, -1},
	{"ng/dead-pawn-move-last-rank", posPromote, "6b6a", IllegalDeadPiece, 0},
	{"ok/pawn-move-last-rank-promoting", posPromote, "6b6a+", LegalMove, -1},
	{"ng/dead-lance-move-last-rank", posPromote, "1d1a", IllegalDeadPiece, 0},
	{"ok/lance-move-last-rank-promoting", posPromote, "1d1a+", LegalMove, -1},
	{"ok/lance-move-second-rank", posPromote, "1d1b", LegalMove, -1},
	{"ok/lance-move-second-rank-promoting", posPromote, "1d1b+", LegalMove, -1},
	{"ok/lance-move-third-rank", posPromote, "1d1c", LegalMove, -1},
	{"ng/dead-knight-move-second-rank", posPromote, "3d2b", IllegalDeadPiece, 0},
	{"ok/knight-move-second-rank-promoting", posPromote, "3d2b+", LegalMove, -1},
	{"ok/knight-move-second-rank-promoting-2", posPromote, "3d4b+", LegalMove, -1},
	{"ok/knight-move-third-rank", posPromote, "8e7c", LegalMove, -1},
	{"ok/knight-move-third-rank-promoting", posPromote, "8e7c+", LegalMove, -1},

	// Promotion eligibility.
	{"ok/silver-leaving-zone-promoting", posPromote, "6c7d+", LegalMove, -1},
	{"ok/silver-leaving-zone", posPromote, "6c7d", LegalMove, -1},
	{"ok/silver-in-zone-promoting", posPromote, "6c5b+", LegalMove, -1},
	{"ok/bishop-entering-zone-promoting", posPromote, "9i3c+", LegalMove, -1},
	{"ok/bishop-entering-zone", posPromote, "9i3c", LegalMove, -1},
	{"ng/bishop-outside-zone-promoting", posPromote, "9i6f+", IllegalCannotPromote, 0},
	{"ng/gold-promoting", posPromote, "5c4b+", IllegalCannotPromote, 0},
	{"ng/king-promoting", posPromote, "5i4h+", IllegalCannotPromote, 0},
	{"ng/tokin-promoting", posPromote, "2f2e+", IllegalCannotPromote, 0},
	{"ng/knight-outside-zone-promoting", posDrops, "8i7g+", IllegalCannotPromote, 0},

	// Pins, including a lance pin along the file.
	{"ng/lance-pinned-gold-leaves-file", posPins, "5h4h", IllegalSelfCheck, 0},
	{"ng/lance-pinned-gold-leaves-file-2", posPins, "5h4g", IllegalSelfCheck, 0},
	{"ok/lance-pinned-gold-along-file", posPins, "5h5g", LegalMove, -1},
	{"ng/bishop-pinned-silver-leaves-line", posPins, "6h6g", IllegalSelfCheck, 0},
	{"ng/bishop-pinned-silver-leaves-line-2", posPins, "6h5g", IllegalSelfCheck, 0},
	{"ok/bishop-pinned-silver-along-line", posPins, "6h7g", LegalMove, -1},
	{"ng/rook-pinned-gold-leaves-rank", posPins, "4i4h", IllegalSelfCheck, 0},
	{"ng/rook-pinned-gold-leaves-rank-2", posPins, "4i3h", IllegalSelfCheck, 0},
	{"ok/rook-pinned-gold-along-rank", posPins, "4i3i", LegalMove, -1},
	{"ng/pinned-pawn-leaves-diagonal", posPawnPins, "7g7f", IllegalSelfCheck, 0},
	{"ok/pinned-pawn-along-file", posPawnPins, "5e5d", LegalMove, -1},
	{"ng/king-into-knight-attack", posPins, "5i4h", IllegalSelfCheck, 0},
	{"ok/king-to-safe-square", posPins, "5i6i", LegalMove, -1},

	// Checks.
	{"ng/ignores-check", posCheck, "7g7f", IllegalIgnoresCheck, 0},
	{"ng/ignores-check-silver", posCheck, "4i4h", IllegalIgnoresCheck, 0},
	{"ng/ignores-check-drop", posCheck, "G*8e", IllegalIgnoresCheck, 0},
	{"ok/interpose-move", posCheck, "6h5g", LegalMove, -1},
	{"ok/interpose-drop", posCheck, "G*5e", LegalMove, -1},
	{"ok/king-steps-aside", posCheck, "5h4h", LegalMove, -1},
	{"ng/king-stays-on-line", posCheck, "5h5g", IllegalIgnoresCheck, 0},
	{"ng/king-steps-back-on-line", posCheck, "5h5i", IllegalIgnoresCheck, 0},
	{"ng/double-check-interpose", posDoubleCheck, "6h5h", IllegalIgnoresCheck, 0},
	{"ng/double-check-capture", posDoubleCheck, "2d1e", IllegalIgnoresCheck, 0},
	{"ng/double-check-king-on-diagonal", posDoubleCheck, "5i4h", IllegalIgnoresCheck, 0},
	{"ng/double-check-king-on-file", posDoubleCheck, "5i5h", IllegalIgnoresCheck, 0},
	{"ok/double-check-king-escapes", posDoubleCheck, "5i4i", LegalMove, -1},
	{"ok/double-check-king-escapes-2", posDoubleCheck, "5i6i", LegalMove, -1},
	{"ok/discovered-check", posDiscover, "5f4e", LegalMove, 1},
	{"ok/discovered-check-2", posDiscover, "5f6e", LegalMove, 1},
	{"ok/no-discovered-check-along-line", posDiscover, "5f5e", LegalMove, -1},

	// Own pieces, hands and squares.
	{"ng/capture-own", posPins, "5i5h", IllegalCaptureOwn, 0},
	{"ng/capture-own-in-double-check", posDoubleCheck, "5i6h", IllegalCaptureOwn, 0},
	{"ng/unreachable", posPins, "5h5f", IllegalUnreachable, 0},
	{"ng/unreachable-blocked-lance", "startpos", "9i9e", IllegalUnreachable, 0},
	{"ng/unreachable-backwards-pawn", "startpos", "7g7h", IllegalUnreachable, 0},
	{"ng/no-piece", posPins, "7a7b", IllegalNoPiece, 0},
	{"ng/not-own-piece", posPins, "3f4h", IllegalNotOwnPiece, 0},
	{"ng/drop-not-in-hand", posPromote, "P*5e", IllegalNotInHand, 0},
	{"ng/drop-not-in-hand-white", posDropsWhite, "R*5e", IllegalNotInHand, 0},
	{"ng/drop-not-in-hand-start", "startpos", "G*5e", IllegalNotInHand, 0},
	{"ng/drop-on-occupied-opponent", posDrops, "B*5c", IllegalDropOccupied, 0},
	{"ng/drop-on-occupied-own", posDrops, "G*5f", IllegalDropOccupied, 0},
	{"ok/bishop-drop", posDrops, "B*5e", LegalMove, -1},
}

// parseTestPosition reads an SFEN or a USI position command.
func parseTestPosition(t testing.TB, s string) *Position {
	t.Helper()
	var p *Position
	var err error
	if strings.HasPrefix(s, "startpos") || strings.HasPrefix(s, "sfen ") {
		p, err = ParseUSIPosition(s)
	} else {
		p, err = ParseSFEN(s)
	}
	if err != nil {
		t.Fatalf("position %q: %v", s, err)
	}
	return p
}

func containsMove16(ms []Move, m Move16) bool {
	for _, x := range ms {
		if x.Move16() == m {
			return true
		}
	}
	return false
}

// TestRules checks every rule case with IsLegal, ParseUSIMove and the
// generator (LegalAll holds the move exactly when it is legal).
func TestRules(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range ruleCases {
		if seen[tc.name] {
			t.Fatalf("duplicate case name %q", tc.name)
		}
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			p := parseTestPosition(t, tc.pos)
			before := p.SFEN()
			m16, err := ParseMove16(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			m := p.ToMove(m16)
			ok, why := p.IsLegal(m)
			if why != tc.want || ok != (tc.want == LegalMove) {
				t.Errorf("IsLegal(%s) = %v, %q; want %q", tc.move, ok, why, tc.want)
			}
			var buf [MaxMoves]Move
			if in := containsMove16(p.GenerateMoves(LegalAll, buf[:0]), m16); in != (tc.want == LegalMove) {
				t.Errorf("%s in GenerateMoves(LegalAll) = %v, want %v", tc.move, in, tc.want == LegalMove)
			}
			pm, err := p.ParseUSIMove(tc.move)
			if tc.want == LegalMove {
				if err != nil || pm != m {
					t.Errorf("ParseUSIMove(%s) = %v, %v; want %v", tc.move, pm, err, m)
				}
			} else {
				var ime *IllegalMoveError
				if !errors.As(err, &ime) || ime.Kind != tc.want || !errors.Is(err, ErrIllegalMove) {
					t.Errorf("ParseUSIMove(%s) error = %v, want an IllegalMoveError of kind %q", tc.move, err, tc.want)
				} else if !strings.Contains(err.Error(), tc.want.String()) {
					t.Errorf("error %q does not say %q", err, tc.want)
				}
			}
			if tc.want == LegalMove {
				gives := p.GivesCheck(m)
				p.DoMove(m)
				if gives != p.InCheck() {
					t.Errorf("GivesCheck(%s) = %v, but after it InCheck = %v", tc.move, gives, p.InCheck())
				}
				if tc.check != 0 && gives != (tc.check > 0) {
					t.Errorf("GivesCheck(%s) = %v, want %v", tc.move, gives, tc.check > 0)
				}
				p.UndoMove()
			}
			if p.SFEN() != before {
				t.Errorf("position changed to %s", p.SFEN())
			}
		})
	}
}

// TestRuleMoveCounts pins down whole move lists where they are short,
// and counts elsewhere.
func TestRuleMoveCounts(t *testing.T) {
	for _, tc := range []struct {
		name, pos string
		kind      GenKind
		want      string // sorted USI moves ("" when only counted)
		count     int
		absent    string // a move that must not be generated
	}{
		{"double-check-king-only", posDoubleCheck, LegalAll, "5i4i 5i6i", 2, "6h5h"},
		{"double-check-evasions", posDoubleCheck, Evasions, "5i4i 5i6i", 2, "2d1e"},
		{"double-check-non-evasions", posDoubleCheck, NonEvasions, "", 0, "5i4i"},
		{"uchifuzume-corner", posUchiCorner, LegalAll, "", 85, "P*1b"},
		{"uchifuzume-checks", posUchi, Checks, "5c4b 5c5b 5c6b G*4b G*5b G*6b", 6, "P*5b"},
		{"no-own-king", posUchiNoKing, LegalAll, "", 76, "P*5b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parseTestPosition(t, tc.pos)
			var buf [MaxMoves]Move
			ms := p.GenerateMoves(tc.kind, buf[:0])
			if got := sortedUSI(ms); tc.want != "" && got != tc.want {
				t.Errorf("moves %q, want %q", got, tc.want)
			}
			if len(ms) != tc.count {
				t.Errorf("%d moves (%s), want %d", len(ms), sortedUSI(ms), tc.count)
			}
			if m16, err := ParseMove16(tc.absent); err != nil || containsMove16(ms, m16) {
				t.Errorf("%s generated (%v)", tc.absent, err)
			}
		})
	}
}

// TestIllegalConstructedMoves checks moves that USI text cannot express.
func TestIllegalConstructedMoves(t *testing.T) {
	drops := parseTestPosition(t, posDrops)
	start := NewStartPosition()
	for _, tc := range []struct {
		name string
		p    *Position
		m    Move
		want IllegalMoveKind
	}{
		{"none", start, MoveNone, IllegalNoMove},
		{"null", start, MoveNull, IllegalNoMove},
		{"drop-promoting", drops, NewDrop(Black, Pawn, NewSquare(3, 5)) | movePromote, IllegalCannotPromote},
		{"drop-king", drops, NewDrop(Black, King, NewSquare(5, 5)), IllegalNotInHand},
		{"drop-promoted-type", drops, NewDrop(Black, ProPawn, NewSquare(3, 5)), IllegalNotInHand},
		{"drop-no-type", drops, Move(NewSquare(3, 5)) | moveDrop, IllegalNotInHand},
		{"drop-off-board", drops, Move(90) | Move(Pawn)<<7 | moveDrop, IllegalUnreachable},
		{"from-off-board", start, Move(NewSquare(7, 6)) | Move(100)<<7, IllegalUnreachable},
		{"same-square", start, Move(NewSquare(7, 7)) | Move(NewSquare(7, 7))<<7, IllegalUnreachable},
		{"piece-mismatch", start, NewBoardMove(NewSquare(7, 7), NewSquare(7, 6), NewPiece(Black, Lance), NoPiece, false), IllegalPieceMismatch},
		{"drop-wrong-color", drops, NewDrop(White, Pawn, NewSquare(3, 5)), IllegalPieceMismatch},
		{"drop-wrong-piece", drops, NewDrop(Black, Pawn, NewSquare(3, 5))&^(0x1f<<16) | Move(NewPiece(Black, Gold))<<16, IllegalPieceMismatch},
		{"wrong-color-piece", start, NewBoardMove(NewSquare(7, 7), NewSquare(7, 6), NewPiece(White, Pawn), NoPiece, false), IllegalPieceMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if ok, why := tc.p.IsLegal(tc.m); ok || why != tc.want {
				t.Errorf("IsLegal = %v, %q; want %q", ok, why, tc.want)
			}
		})
	}
}

func sortedUSI(ms []Move) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.USI()
	}
	slices.Sort(s)
	return strings.Join(s, " ")
}
