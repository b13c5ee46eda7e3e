package cra

import (
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// Positions of real games for the CRA tests. Where each comes from is
// said on the constant; the moves asserted below are explained in the
// test cases.
const (
	// The start position of every even game.
	craStart = kifu.StartSFEN
	// shogi-kifu-rag/sample.kif, move 121: Black mates with 6c7b+ (played)
	// or 8c7b; 6c7b without promotion is only a check (the king escapes to
	// 6b, which an unpromoted silver on 7b does not cover), and the
	// opponent's king is in danger (score 5).
	craMate = "l1k2r1n1/8l/1GnS3p1/pS1pG1p1p/2G6/P4P2P/2+pPPSPP1/5+rlK1/+b4sNNL b 2Pbg3p 121"
	// A professional game, move 111: Black's king on 8h is in check from
	// the promoted pawn on 8g; three legal moves.
	craEvasion = "l4+P1nk/6ggl/4p1s1p/p1pps2p1/1r4p1P/P1P2P+b2/1+pSG2B2/1KGS3R1/L6NL b N2Pn3p 111"
	// A professional game, move 71: 5g8d takes the pawn on 8d with check
	// (the bishop on 8d sees the king on 6b through 7c).
	craWinCheck = "l6nl/2gk1r3/4p4/ppp3gpp/1n1s5/PSP1Ps3/1P1GB3P/1K1G1S1R1/LN3b1NL b 5P2p 71"
	// A professional game, move 97: 2e2d pushes the pawn against the pawn
	// on 2c, which takes it (SEE -2): a pawn sacrifice (突き捨て).
	craSacrifice = "l6nk/4+P1ggl/1r2p1spp/p1pps4/1p1n2pPP/P1PS1P+b2/1P1G2B2/1KGS3R1/LN5NL b P2p 97"
	// A professional game, move 75: White's pawn on 4f threatens 4f4g+
	// (4g is empty and no Black piece attacks it); P*4h guards 4g.
	craStopPromo = "ln5nl/4r1gk1/p1pp1gbp1/4ss2p/Pp1P2PP1/2SSPpp1P/1PBG5/1KG1R4/LN5NL b 2Pp 75"
	// A professional game, move 38 (White to move): 7d8c puts the silver
	// on the Black bishop of 8d and, leaving 7d, opens the file of the
	// rook on 7b onto the undefended gold on 7h: a double attack.
	craDouble = "ln3g1nl/2r1g1kb1/p3pp1p1/1Bs2sp1p/3pP4/4RS3/PP1P1PPPP/2G3SK1/LN3G1NL w 2Pp 38"
	// A professional game, move 49: White's bishop on 7c attacks the rook
	// on 2h along 6d-5e-4f-3g; 2h1h takes it out of the diagonal.
	craEscape = "ln4knl/3rg1g2/p1b1p1spp/2p1s1p2/1p3p1P1/2PSP1P2/PP1GSP2P/1KG4R1/LN2B2NL b Pp 49"
	// A professional game, move 65: Black's lance on 1e is attacked by the
	// silver on 2d and undefended; 3h1h defends it from below; Black's
	// own king is in danger (score 4).
	craDefend = "l3S1kn1/4r1g2/1B1g3p1/pppbppSs1/1n1p2P1L/P1P1PP1P1/1PSP1G3/1KG3R2/LN7 b Pnl2p 65"
	// Openings of many games, as USI positions with their moves.
	craOpening  = "startpos moves 7g7f 3c3d 6g6f 8c8d"
	craExchange = "startpos moves 7g7f 3c3d 8h2b+"
)

// analyze returns the analysis of the move usi of the position sfen (or,
// when it starts with "startpos", the USI position with its moves, whose
// history the response features need).
func analyze(t *testing.T, sfen, usi string) (Analysis, *Analyzer, *kifu.Position) {
	t.Helper()
	var pos *kifu.Position
	var err error
	if strings.HasPrefix(sfen, "startpos") {
		pos, err = kifu.ParseUSIPosition(sfen)
	} else {
		pos, err = kifu.ParseSFEN(sfen)
	}
	if err != nil {
		t.Fatal(err)
	}
	m, err := pos.ParseUSIMove(usi)
	if err != nil {
		t.Fatal(err)
	}
	var a Analyzer
	a.Reset(pos, pos.LastMove())
	return a.Analyze(m), &a, pos
}

func TestRelevanceClasses(t *testing.T) {
	tests := []struct {
		name     string
		sfen     string
		move     string
		has      Relevance // every class must be present
		lacks    Relevance // no class may be present
		relevant bool
	}{
		{"start: a pawn push opening the bishop's diagonal develops", craStart, "7g7f", RelDevelop, RelReach | RelCheck, true},
		{"start: the edge lance step has no purpose", craStart, "9i9h", 0, ^Relevance(0), false},
		{"start: the king stepping towards a castle castles", craStart, "5i6h", RelCastle, RelReach | RelThreat, true},
		{"the promoting silver mates", craMate, "6c7b+", RelMate | RelCheck | RelPromote, RelTake, true},
		{"the gold takes the silver's place and mates too", craMate, "8c7b", RelMate | RelCheck, RelPromote, true},
		{"the unpromoted silver checks but does not mate", craMate, "6c7b", RelCheck | RelKingAttack, RelMate | RelPromote, true},
		{"in check every move is an evasion: gold takes the checker", craEvasion, "7h8g", RelEvasion | RelTake, RelMate, true},
		{"in check every move is an evasion: king steps away", craEvasion, "8h7i", RelEvasion, RelTake, true},
		{"a capture with check", craWinCheck, "5g8d", RelTake | RelCheck, RelMate | RelPromote, true},
		{"a pawn sacrifice against a pawn stays relevant", craSacrifice, "2e2d", RelAttackHigher, RelTake | RelCheck, true},
		{"a pawn drop guarding the promotion square", craStopPromo, "P*4h", RelStopPromotion, RelReach | RelCheck, true},
		{"a retreat attacking a bishop and uncovering a rook on a gold", craDouble, "7d8c", RelAttackHigher, RelTake | RelCheck, true},
		{"the attacked rook steps aside", craEscape, "2h1h", RelMoveAttacked, RelTake, true},
		{"the rook defends the attacked lance", craDefend, "3h1h", RelDefendAttacked, RelTake | RelCheck, true},
		{"a pawn dropped on 8b can promote next move, next to the king", craMate, "P*8b", RelThreatPromote | RelAttackFormation, RelTake | RelCheck, true},
		{"our king in danger steps to a safer square", craMate, "2h1g", RelKingDefence | RelCastle, RelThreat, true},
		{"a gold step back with more squares to go to", craMate, "5d5e", RelMobility, RelReach | RelThreat, true},
		{"a pawn drop blocking the bishop's diagonal", craWinCheck, "P*2g", RelRestrict, RelReach | RelThreat, true},
		{"an irrelevant pawn drop", craMate, "P*7f", 0, ^Relevance(0), false},
		{"a gold stepping into capture for nothing", craMate, "7e6e", 0, ^Relevance(0), false},
		// 7g7f 3c3d 6g6f 8c8d: a common opening. 7f7e advances the pawn next
		// to where our last move (6g6f) ended and next to White's 8d.
		{"a follow-up of our last move, next to the opponent's", craOpening, "7f7e", RelResponse | RelDevelop, RelReach | RelCheck, true},
		// 7g7f 3c3d 8h2b+: the bishop exchange; 3a2b takes back on 2b.
		{"taking back on the square of the last move", craExchange, "3a2b", RelTake | RelResponse, RelCheck, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, _, _ := analyze(t, tc.sfen, tc.move)
			if !a.Rel.Has(tc.has) {
				t.Errorf("%s: classes %v, want all of %v", tc.move, a.Rel, tc.has)
			}
			if a.Rel.Any(tc.lacks) {
				t.Errorf("%s: classes %v, want none of %v", tc.move, a.Rel, tc.lacks&a.Rel)
			}
			if a.Rel.Relevant() != tc.relevant {
				t.Errorf("%s: relevant %v, want %v (classes %v)", tc.move, a.Rel.Relevant(), tc.relevant, a.Rel)
			}
		})
	}
}

func TestRanks(t *testing.T) {
	tests := []struct {
		name string
		sfen string
		move string
		rank Rank
		// base is the rank without the king-danger rule (0: the same).
		base Rank
	}{
		{"mate ranks first", craMate, "6c7b+", RankTakeKing, 0},
		{"an evasion taking the checker with gain is still an evasion", craEvasion, "7h8g", RankEvasion, 0},
		{"a king evasion", craEvasion, "8h7i", RankEvasion, 0},
		{"win material with check", craWinCheck, "5g8d", RankWinWithCheck, 0},
		{"win material: the gold takes a silver", craMate, "8c7c", RankWinMaterial, 0},
		{"an en-prise rook escapes", craEscape, "2h1h", RankMoveAttacked, 0},
		{"a silver promotes", craMate, "6c5b+", RankPromote, 0},
		{"a drop stops a promotion", craStopPromo, "P*4h", RankStopPromotion, 0},
		{"a double attack", craDouble, "7d8c", RankMultipleAttack, 0},
		{"their king in danger: a check rises to rank 6", craMate, "6c7b", RankPromote, RankAttacking},
		{"our king in danger: a defensive move rises to rank 6", craDefend, "3h1h", RankPromote, RankDefensive},
		{"a pawn sacrifice ranks last", craSacrifice, "2e2d", RankSacrifice, 0},
		{"an irrelevant safe move is only safe", craStart, "9i9h", RankSafe, 0},
		{"taking back the bishop wins material", craExchange, "3a2b", RankWinMaterial, 0},
		{"a losing irrelevant move is a sacrifice too", craMate, "7e6e", RankSacrifice, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, an, _ := analyze(t, tc.sfen, tc.move)
			if a.Rank != tc.rank {
				t.Errorf("%s: rank %d %v, want %d %v (classes %v, SEE %d)", tc.move, a.Rank, a.Rank, tc.rank, tc.rank, a.Rel, a.Facts.Gain)
			}
			base := tc.base
			if base == 0 {
				base = tc.rank
			}
			if got := RankOf(&a.Facts, a.Rel, a.Higher, false, false); got != base {
				t.Errorf("%s: rank without king danger %v, want %v", tc.move, got, base)
			}
			ours, theirs := an.Danger()
			if tc.base != 0 && ours < DangerLevel && theirs < DangerLevel {
				t.Errorf("%s: rank raised by the danger rule, but danger %d/%d < %d", tc.move, ours, theirs, DangerLevel)
			}
		})
	}
}

// TestKingDangerRule checks the rule on RankOf directly: a defensive or
// attacking move rises to rank 6 only when the king concerned is in
// danger, never above rank 6, and never when it loses material.
func TestKingDangerRule(t *testing.T) {
	safe := categorize.Facts{}
	loss := categorize.Facts{Gain: -2}
	capture := categorize.Facts{Gain: 8, First: 8, Flags: categorize.FlagCapture}
	tests := []struct {
		name                   string
		f                      categorize.Facts
		rel                    Relevance
		ourDanger, theirDanger bool
		want                   Rank
	}{
		{"attacking, their king safe", safe, RelCheck, false, false, RankAttacking},
		{"attacking, their king in danger", safe, RelCheck, false, true, RankPromote},
		{"attacking, only our king in danger", safe, RelKingAttack, true, false, RankAttacking},
		{"defensive, our king in danger", safe, RelKingDefence, true, false, RankPromote},
		{"defensive, only their king in danger", safe, RelDefendAttacked, false, true, RankDefensive},
		{"a capture stays above rank 6", capture, RelTake | RelCheck, true, true, RankWinWithCheck},
		{"a losing check stays last", loss, RelCheck, true, true, RankSacrifice},
		{"a mate ranks first even when it loses material", loss, RelMate | RelCheck, false, false, RankTakeKing},
		{"castling is not raised", safe, RelCastle, true, true, RankCastling},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RankOf(&tc.f, tc.rel, 0, tc.ourDanger, tc.theirDanger); got != tc.want {
				t.Errorf("RankOf = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestKingDangerScore(t *testing.T) {
	tests := []struct {
		name         string
		sfen         string
		ours, theirs int
	}{
		{"start position", craStart, 0, 0},
		// Black's king on 8h: the promoted pawn on 8g attacks 9g, 7g, 9h
		// and 7h, the rook on 8e defends 8g (5 zone squares); Black is in
		// check (+2); one White piece within 2 steps (+1). White's king
		// on 1a: no zone square attacked, Black holds a knight (+2).
		{"check by a promoted pawn", craEvasion, 8, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := kifu.ParseSFEN(tc.sfen)
			if err != nil {
				t.Fatal(err)
			}
			us := pos.SideToMove()
			if got := KingDangerScore(pos, us); got != tc.ours {
				t.Errorf("our danger %d, want %d", got, tc.ours)
			}
			if got := KingDangerScore(pos, us.Opp()); got != tc.theirs {
				t.Errorf("their danger %d, want %d", got, tc.theirs)
			}
			if got := KingInDanger(pos, us); got != (tc.ours >= DangerLevel) {
				t.Errorf("KingInDanger = %v with score %d", got, tc.ours)
			}
		})
	}
}

func TestCommonRank(t *testing.T) {
	tests := []struct {
		name, sfen, move string
		want             Rank
	}{
		{"in check", craEvasion, "8h7i", CommonEvasion},
		{"win material", craMate, "8c7c", CommonWinMaterial},
		{"promote", craMate, "6c5b+", CommonPromote},
		{"quiet and safe", craStart, "7g7f", CommonSafe},
		{"sacrifice", craSacrifice, "2e2d", CommonSacrifice},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, _, _ := analyze(t, tc.sfen, tc.move)
			if a.Common != tc.want {
				t.Errorf("%s: common rank %d, want %d", tc.move, a.Common, tc.want)
			}
		})
	}
}

// TestRankTiers checks that the tiers keep the paper's order: a lower
// rank never has a higher tier than a higher rank, except where the tiers
// merge (the exchange joins the goal and material tier).
func TestRankTiers(t *testing.T) {
	for r := Rank(1); r <= RankNB; r++ {
		if tr := r.Tier(); tr < 1 || tr > 6 {
			t.Errorf("rank %v: tier %d", r, tr)
		}
	}
	for _, tc := range []struct {
		a, b Rank
	}{{RankTakeKing, RankMoveAttacked}, {RankExchange, RankMoveAttacked}, {RankMoveAttacked, RankPromote},
		{RankPromote, RankSingleAttack}, {RankSingleAttack, RankCastling}, {RankSafe, RankSacrifice}} {
		if tc.a.Tier() >= tc.b.Tier() {
			t.Errorf("tier(%v) = %d, not below tier(%v) = %d", tc.a, tc.a.Tier(), tc.b, tc.b.Tier())
		}
	}
}

func TestFeatureTables(t *testing.T) {
	if featureNB > 64 {
		t.Fatalf("%d features do not fit a Features", featureNB)
	}
	seen := map[string]bool{}
	for f := Feature(0); f < featureNB; f++ {
		n := f.String()
		if n == "" || seen[n] {
			t.Errorf("feature %d: name %q empty or repeated", f, n)
		}
		seen[n] = true
		if c := f.Class(); c == 0 || c&(c-1) != 0 {
			t.Errorf("feature %s: class %v is not one class", n, c)
		}
	}
	for _, f := range []Feature{FMate, FEvasion, FCheckSafe, FCaptureSafe, FPromoteSafe} {
		if !f.Enabled(false) || !f.Enabled(true) {
			t.Errorf("core feature %s is not enabled for board moves and drops", f)
		}
	}
	for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
		switch pt {
		case kifu.Pawn, kifu.Silver, kifu.Gold, kifu.Knight, kifu.Bishop, kifu.Rook, kifu.King:
			if f := developFeature[pt]; f.Class() != RelDevelop {
				t.Errorf("developFeature[%v] = %s, not a development feature", pt, f)
			}
		}
	}
	if got := (RelMate | RelCastle).String(); got != "mate+castle" {
		t.Errorf("String = %q", got)
	}
	if got := Relevance(0).String(); got != "irrelevant" {
		t.Errorf("String = %q", got)
	}
}

// TestFeaturesAgainstReference checks the features that have a slow,
// obvious definition on every legal move of positions of real
// professional games: mate, check, capture, promotion and evasion by
// playing the move, and the safe/loss split by the sign of SEE.
func TestFeaturesAgainstReference(t *testing.T) {
	games := kifutest.Games(t, "pro")
	if len(games) > 12 {
		games = games[:12]
	}
	var an Analyzer
	var buf, ev [kifu.MaxMoves]kifu.Move
	n := 0
	for _, g := range games {
		kifutest.Positions(t, g.Record, func(pos *kifu.Position, _ kifu.Move) {
			if pos.Ply()%3 != 0 {
				return
			}
			an.Reset(pos, pos.LastMove())
			inCheck := pos.InCheck()
			for _, m := range pos.GenerateMoves(kifu.Legal, buf[:0]) {
				a := an.Analyze(m)
				fs := a.Features
				n++
				checks := pos.GivesCheck(m)
				pos.DoMove(m)
				mated := checks && len(pos.GenerateMoves(kifu.Legal, ev[:0])) == 0
				pos.UndoMove()
				safe := a.Facts.Gain >= 0
				for _, c := range []struct {
					name      string
					got, want bool
				}{
					{"mate", fs.Has(FMate), mated},
					{"check", fs.Has(FCheckSafe) || fs.Has(FCheckLoss), checks},
					{"check-safe", fs.Has(FCheckSafe), checks && safe},
					{"capture", fs.Has(FCaptureSafe) || fs.Has(FCaptureLoss), m.IsCapture()},
					{"capture-loss", fs.Has(FCaptureLoss), m.IsCapture() && !safe},
					{"promote", fs.Has(FPromoteSafe) || fs.Has(FPromoteLoss), m.IsPromotion()},
					{"evasion", fs.Has(FEvasion), inCheck},
					{"drop near own king only for drops", fs.Has(FDropNearOwnKing) && !m.IsDrop(), false},
					{"king move", fs.Has(FKingMove), !m.IsDrop() && m.Piece().Type() == kifu.King},
					{"mate threat is never a check", (fs.Has(FMateThreatSafe) || fs.Has(FMateThreatLoss)) && checks, false},
					{"rank 17 is a loss", a.Rank == RankSacrifice, !safe && !mated},
				} {
					if c.got != c.want {
						t.Fatalf("%s %s: %s is %v, want %v (features %v)", pos.SFEN(), m.USI(), c.name, c.got, c.want, featureList(fs))
					}
				}
			}
		})
	}
	if n < 10000 {
		t.Errorf("only %d moves checked", n)
	}
}

func featureList(fs Features) string {
	var b strings.Builder
	for f := Feature(0); f < featureNB; f++ {
		if fs.Has(f) {
			b.WriteString(f.String() + " ")
		}
	}
	return b.String()
}

// TestAnalyzeAllocs checks that the analysis allocates nothing and
// leaves the position as it was.
func TestAnalyzeAllocs(t *testing.T) {
	pos, err := kifu.ParseSFEN(craMate)
	if err != nil {
		t.Fatal(err)
	}
	key, sfen := pos.Key(), pos.SFEN()
	var a Analyzer
	var buf [kifu.MaxMoves]kifu.Move
	moves := pos.GenerateMoves(kifu.Legal, buf[:0])
	allocs := testing.AllocsPerRun(20, func() {
		a.Reset(pos, pos.LastMove())
		for _, m := range moves {
			a.Analyze(m)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per position", allocs)
	}
	if pos.Key() != key || pos.SFEN() != sfen {
		t.Errorf("the position changed: %s", pos.SFEN())
	}
}

// TestLazyThreatSameResult checks that leaving the mate-threat test to
// when it matters (Analyzer.Full unset) gives the same classes and ranks
// as testing it on every move, on positions of real professional games.
func TestLazyThreatSameResult(t *testing.T) {
	games := kifutest.Games(t, "pro")
	if len(games) > 8 {
		games = games[len(games)-8:]
	}
	var lazy, full Analyzer
	full.Full = true
	var buf [kifu.MaxMoves]kifu.Move
	threats := 0
	for _, g := range games {
		kifutest.Positions(t, g.Record, func(pos *kifu.Position, _ kifu.Move) {
			if pos.Ply()%2 != 0 {
				return
			}
			lazy.Reset(pos, pos.LastMove())
			full.Reset(pos, pos.LastMove())
			for _, m := range pos.GenerateMoves(kifu.Legal, buf[:0]) {
				a, b := lazy.Analyze(m), full.Analyze(m)
				if b.Features.Has(FMateThreatSafe) || b.Features.Has(FMateThreatLoss) {
					threats++
				}
				if a.Rel != b.Rel || a.Rank != b.Rank {
					t.Fatalf("%s %s: lazy %v rank %v, full %v rank %v", pos.SFEN(), m.USI(), a.Rel, a.Rank, b.Rel, b.Rank)
				}
				if a.Features&^(1<<FMateThreatSafe|1<<FMateThreatLoss) != b.Features&^(1<<FMateThreatSafe|1<<FMateThreatLoss) {
					t.Fatalf("%s %s: features differ beyond the mate threat", pos.SFEN(), m.USI())
				}
			}
		})
	}
	if threats == 0 {
		t.Error("no mate threat in these games: the test tests nothing")
	}
}
