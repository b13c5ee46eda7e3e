package kifu

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// This file checks Position against slow, obviously correct references:
// the bitboards against the mailbox, the incremental key against a
// recomputed one, the generator against a brute force over every move
// IsLegal accepts, and every GenKind against its definition, on the
// positions of fixed-seed random games.

// Naive attacks: step and ray tables written out again, independent of
// attack.go.
var (
	naiveSteps = [PieceTypeNB][][2]int{ // (file, rank) steps for Black
		Pawn:   {{0, -1}},
		Knight: {{1, -2}, {-1, -2}},
		Silver: {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}},
		Gold:   {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}},
		King:   {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}},
		Horse:  {{0, -1}, {-1, 0}, {1, 0}, {0, 1}},
		Dragon: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
	}
	naiveRays = [PieceTypeNB][][2]int{
		Lance:  {{0, -1}},
		Bishop: {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
		Rook:   {{0, -1}, {-1, 0}, {1, 0}, {0, 1}},
		Horse:  {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}},
		Dragon: {{0, -1}, {-1, 0}, {1, 0}, {0, 1}},
	}
)

// naiveAttacks returns the squares piece pc on s attacks given occ, by
// walking the board.
func naiveAttacks(pc Piece, s Square, occ Bitboard) Bitboard {
	pt := pc.Type()
	if pt.IsGoldLike() {
		pt = Gold
	}
	sign := 1
	if pc.Color() == White {
		sign = -1
	}
	var bb Bitboard
	for _, d := range naiveSteps[pt] {
		f, r := s.File()+sign*d[0], s.Rank()+sign*d[1]
		if f >= 1 && f <= 9 && r >= 1 && r <= 9 {
			bb = bb.Set(NewSquare(f, r))
		}
	}
	for _, d := range naiveRays[pt] {
		for f, r := s.File()+sign*d[0], s.Rank()+sign*d[1]; f >= 1 && f <= 9 && r >= 1 && r <= 9; f, r = f+sign*d[0], r+sign*d[1] {
			t := NewSquare(f, r)
			bb = bb.Set(t)
			if occ.Has(t) {
				break
			}
		}
	}
	return bb
}

// naiveAttackers returns c's pieces attacking s given occ (pieces standing
// on squares outside occ are ignored).
func naiveAttackers(p *Position, c Color, s Square, occ Bitboard) Bitboard {
	var bb Bitboard
	if s == NoSquare {
		return bb
	}
	for from := Square(0); from < SquareNB; from++ {
		pc := p.board[from]
		if pc != NoPiece && pc.Color() == c && occ.Has(from) && naiveAttacks(pc, from, occ).Has(s) {
			bb = bb.Set(from)
		}
	}
	return bb
}

// checkConsistent checks every invariant of p against the mailbox.
func checkConsistent(p *Position) error {
	if p.board[NoSquare] != NoPiece {
		return fmt.Errorf("board[NoSquare] = %v", p.board[NoSquare])
	}
	var byType [PieceTypeNB]Bitboard
	var byColor [ColorNB]Bitboard
	kings := [ColorNB]Square{NoSquare, NoSquare}
	var counts [PieceTypeNB]int
	for s := Square(0); s < SquareNB; s++ {
		pc := p.board[s]
		if pc == NoPiece {
			continue
		}
		pt, c := pc.Type(), pc.Color()
		if pt == NoPieceType || pt >= PieceTypeNB || pc>>5 != 0 {
			return fmt.Errorf("bad piece %d on %v", pc, s)
		}
		byType[pt] = byType[pt].Set(s)
		byColor[c] = byColor[c].Set(s)
		if pt == King {
			if kings[c] != NoSquare {
				return fmt.Errorf("two kings of color %v", c)
			}
			kings[c] = s
		}
		if isDead(c, pt, s) {
			return fmt.Errorf("dead piece %v on %v", pc, s)
		}
		counts[pt.Unpromote()]++
	}
	if byType != p.byType {
		return fmt.Errorf("byType disagrees with the board")
	}
	if byColor != p.byColor {
		return fmt.Errorf("byColor disagrees with the board")
	}
	if occ := byColor[Black].Or(byColor[White]); occ != p.occupied {
		return fmt.Errorf("occupied disagrees with the board")
	}
	if kings != p.kingSq {
		return fmt.Errorf("kingSq = %v, board has kings on %v", p.kingSq, kings)
	}
	for c := Black; c <= White; c++ {
		for pt := Pawn; pt <= Gold; pt++ {
			counts[pt] += p.hands[c].Count(pt)
		}
		if p.hands[c]&^(0x1f|0x7<<8|0x7<<12|0x7<<16|0x3<<20|0x3<<24|0x7<<28) != 0 {
			return fmt.Errorf("hand %x has stray bits", uint32(p.hands[c]))
		}
		for f := 1; f <= 9; f++ {
			if p.PiecesOf(c, Pawn).And(FileBB(f)).MoreThanOne() {
				return fmt.Errorf("nifu on file %d", f)
			}
		}
	}
	for pt := Pawn; pt <= Gold; pt++ {
		// HandCapacity, not MaxHand: perft positions may hold more than a set.
		if counts[pt] > HandCapacity[pt] {
			return fmt.Errorf("%d pieces of type %v", counts[pt], pt)
		}
	}
	if k, ck := p.Key(), p.ComputedKey(); k != ck {
		return fmt.Errorf("Key() = %#x, ComputedKey() = %#x", k, ck)
	}
	us := p.side
	if ch := naiveAttackers(p, us.Opp(), p.kingSq[us], p.occupied); ch != p.Checkers() {
		return fmt.Errorf("Checkers() =\n%vwant\n%v", p.Checkers(), ch)
	}
	if naiveAttackers(p, us, p.kingSq[us.Opp()], p.occupied).Any() {
		return fmt.Errorf("the side not to move is in check")
	}
	return nil
}

// fullSet reports whether board and hands hold exactly one set of pieces
// (true for every position reached from the start position).
func fullSet(p *Position) bool {
	var counts [PieceTypeNB]int
	for s := Square(0); s < SquareNB; s++ {
		if pc := p.board[s]; pc != NoPiece {
			counts[pc.Type().Unpromote()]++
		}
	}
	for c := Black; c <= White; c++ {
		for pt := Pawn; pt <= Gold; pt++ {
			counts[pt] += p.hands[c].Count(pt)
		}
	}
	for pt := Pawn; pt <= Gold; pt++ {
		if counts[pt] != MaxHand[pt] {
			return false
		}
	}
	return counts[King] == 2
}

// bruteForceLegal returns every move IsLegal accepts: every origin
// square, destination and promotion flag, and every drop.
func bruteForceLegal(p *Position) []Move {
	var out []Move
	for from := Square(0); from < SquareNB; from++ {
		if pc := p.board[from]; pc == NoPiece || pc.Color() != p.side {
			continue // IsLegal rejects these: TestBruteForceOrigins
		}
		for to := Square(0); to < SquareNB; to++ {
			for _, promo := range []Move16{0, movePromote} {
				m := p.ToMove(Move16(to) | Move16(from)<<7 | promo)
				if ok, _ := p.IsLegal(m); ok {
					out = append(out, m)
				}
			}
		}
	}
	for pt := Pawn; pt <= Gold; pt++ {
		for to := Square(0); to < SquareNB; to++ {
			m := NewDrop(p.side, pt, to)
			if ok, _ := p.IsLegal(m); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// sortedMoves returns a sorted copy.
func sortedMoves(ms []Move) []Move {
	s := slices.Clone(ms)
	slices.Sort(s)
	return s
}

// pointlessNonPromotion reports whether m is one of the non-promotions
// that Legal leaves out: a pawn, bishop or rook not promoting when it may,
// or a lance not promoting on the second rank.
func pointlessNonPromotion(p *Position, m Move) bool {
	if m.IsDrop() || m.IsPromotion() {
		return false
	}
	us := p.side
	pt := m.Piece().Type()
	zone := PromotionZone(us).Has(m.From()) || PromotionZone(us).Has(m.To())
	switch pt {
	case Pawn, Bishop, Rook:
		return zone
	case Lance:
		return m.To().RelativeRank(us) == 2
	}
	return false
}

// givesCheckSlow makes m and looks whether the opponent's king is
// attacked (DoMove's checkers are checked against naiveAttackers by
// checkConsistent).
func givesCheckSlow(p *Position, m Move) bool {
	p.DoMove(m)
	defer p.UndoMove()
	return p.AttackersTo(p.side.Opp(), p.kingSq[p.side], p.occupied).Any()
}

// naivePinned returns c's pieces (not the king) whose removal would let an
// opponent piece attack c's king.
func naivePinned(p *Position, c Color) Bitboard {
	var bb Bitboard
	ksq := p.kingSq[c]
	if ksq == NoSquare {
		return bb
	}
	before := naiveAttackers(p, c.Opp(), ksq, p.occupied)
	own := p.byColor[c].Clear(ksq)
	for own.Any() {
		s := own.Pop()
		if naiveAttackers(p, c.Opp(), ksq, p.occupied.Clear(s)).AndNot(before).Any() {
			bb = bb.Set(s)
		}
	}
	return bb
}

func filterMoves(ms []Move, keep func(Move) bool) []Move {
	var out []Move
	for _, m := range ms {
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}

// checkGenerator compares every GenKind with its definition and LegalAll
// with the brute force. It leaves p unchanged.
func checkGenerator(p *Position, brute bool) error {
	var buf [MaxMoves]Move
	// GenerateTargets gives the moves of LegalAll in the same order.
	var tg Targets
	p.GenerateTargets(&tg)
	if got, want := tg.Moves(p, nil), p.GenerateMoves(LegalAll, nil); !slices.Equal(got, want) {
		return fmt.Errorf("GenerateTargets gives %v\nLegalAll %v", got, want)
	} else if tg.Count() != len(want) {
		return fmt.Errorf("Targets.Count() = %d, want %d", tg.Count(), len(want))
	}
	var attacked Bitboard
	for s := Square(0); s < SquareNB; s++ {
		if p.IsAttacked(p.side.Opp(), s, p.occupied) {
			attacked = attacked.Set(s)
		}
	}
	var tg2 Targets
	if p.GenerateTargetsAttacked(&tg2, attacked); tg2 != tg {
		return fmt.Errorf("GenerateTargetsAttacked differs from GenerateTargets")
	}
	gen := func(k GenKind) []Move { return sortedMoves(p.GenerateMoves(k, buf[:0])) }
	all := gen(LegalAll)
	if len(all) > MaxMoves {
		return fmt.Errorf("%d moves", len(all))
	}
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			return fmt.Errorf("LegalAll has %v twice", all[i])
		}
	}
	for _, m := range all {
		if ok, why := p.IsLegal(m); !ok {
			return fmt.Errorf("LegalAll has %v, but IsLegal says %q", m, why)
		}
		if !m.IsDrop() && (m.Piece() != p.board[m.From()] || m.Captured() != p.board[m.To()]) {
			return fmt.Errorf("move %v has wrong piece fields", m)
		}
		if gc := p.GivesCheck(m); gc != givesCheckSlow(p, m) {
			return fmt.Errorf("GivesCheck(%v) = %v, wrong", m, gc)
		}
	}
	if brute {
		if bf := sortedMoves(bruteForceLegal(p)); !slices.Equal(bf, all) {
			return fmt.Errorf("LegalAll %v\nbrute force %v", all, bf)
		}
	}
	legal := filterMoves(all, func(m Move) bool { return !pointlessNonPromotion(p, m) })
	checks := filterMoves(legal, func(m Move) bool { return givesCheckSlow(p, m) })
	want := map[GenKind][]Move{
		Legal:       legal,
		Captures:    filterMoves(legal, Move.IsCapture),
		Quiets:      filterMoves(legal, func(m Move) bool { return !m.IsCapture() }),
		Checks:      checks,
		QuietChecks: filterMoves(checks, func(m Move) bool { return !m.IsCapture() }),
		Evasions:    nil,
		NonEvasions: legal,
		Recaptures:  nil,
	}
	if p.InCheck() {
		want[Evasions], want[NonEvasions] = legal, nil
	}
	if last := p.LastMove(); last != MoveNone && last != MoveNull {
		want[Recaptures] = filterMoves(legal, func(m Move) bool { return m.IsCapture() && m.To() == last.To() })
	}
	for _, k := range []GenKind{Legal, Captures, Quiets, Evasions, NonEvasions, Checks, QuietChecks, Recaptures} {
		if got := gen(k); !slices.Equal(got, want[k]) {
			return fmt.Errorf("GenKind %d: got %v\nwant %v", k, got, want[k])
		}
	}
	// The output appends to buf and leaves what was there alone.
	pre := buf[:1]
	pre[0] = MoveNull
	if got := p.GenerateMoves(LegalAll, pre); got[0] != MoveNull || len(got) != len(all)+1 {
		return fmt.Errorf("GenerateMoves does not append")
	}
	if got := p.IsMate(); got != (p.InCheck() && len(all) == 0) {
		return fmt.Errorf("IsMate() = %v with %d moves", got, len(all))
	}
	if got := p.HasLegalMove(); got != (len(all) > 0) {
		return fmt.Errorf("HasLegalMove() = %v with %d moves", got, len(all))
	}
	if got, want := p.Pinned(p.side), naivePinned(p, p.side); got != want {
		return fmt.Errorf("Pinned =\n%vwant\n%v", got, want)
	}
	return nil
}

// checkRoundTrip checks that the SFEN reads back to the same position
// (read as perft positions are: p may hold more pieces than a set).
func checkRoundTrip(p *Position) error {
	s := p.SFEN()
	q, err := ParseSFENWith(s, perftSFEN)
	if err != nil {
		return err
	}
	if q.SFEN() != s || q.Key() != p.Key() || q.Checkers() != p.Checkers() {
		return fmt.Errorf("SFEN round trip gives %s", q.SFEN())
	}
	return nil
}

var (
	randomGamesN = flag.Int("random.games", 1000, "number of random games from the start position in TestRandomGames")
	randomFull   = flag.Bool("random.full", false, "check every GenKind and the brute force on every position of TestRandomGames")
)

// randomConfig sets up randomGames.
type randomConfig struct {
	seed   uint64
	start  string
	games  int
	maxPly int
	// Every position gets the cheap checks (consistency, SFEN round trip,
	// do/undo); every genEvery-th the GenKind checks, every bruteEvery-th
	// also the brute force (0: never).
	genEvery, bruteEvery int
}

// randomGames plays fixed-seed random games (uniform over LegalAll) and
// checks the positions as cfg says. It returns the number of positions.
func randomGames(t *testing.T, cfg randomConfig) (positions int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(cfg.seed, 0x72707368))
	p := mustParse(t, cfg.start)
	root := p.SFEN()
	var buf [MaxMoves]Move
	for g := 0; g < cfg.games; g++ {
		for ply := 0; ply < cfg.maxPly; ply++ {
			ms := p.GenerateMoves(LegalAll, buf[:0])
			if len(ms) == 0 {
				break
			}
			m := ms[rng.IntN(len(ms))]
			sfen, key, checkers := p.SFEN(), p.Key(), p.Checkers()
			p.DoMove(m)
			positions++
			fail := func(err error) {
				t.Helper()
				t.Fatalf("game %d ply %d, after %v from %s:\n%v", g, ply, m, sfen, err)
			}
			if err := checkConsistent(p); err != nil {
				fail(err)
			}
			if p.LastMove().Move16() != m.Move16() {
				fail(fmt.Errorf("LastMove() = %v", p.LastMove()))
			}
			if err := checkRoundTrip(p); err != nil {
				fail(err)
			}
			if cfg.genEvery > 0 && positions%cfg.genEvery == 0 {
				brute := cfg.bruteEvery > 0 && positions%cfg.bruteEvery == 0
				if err := checkGenerator(p, brute); err != nil {
					fail(err)
				}
			}
			if !p.InCheck() && rng.IntN(8) == 0 {
				s, k := p.SFEN(), p.Key()
				p.DoNullMove()
				if p.InCheck() || p.Key() != p.ComputedKey() || p.Key() == k {
					fail(fmt.Errorf("null move: in check %v, key %#x", p.InCheck(), p.Key()))
				}
				p.UndoNullMove()
				if p.SFEN() != s || p.Key() != k {
					fail(fmt.Errorf("UndoNullMove gives %s", p.SFEN()))
				}
			}
			p.UndoMove()
			if p.SFEN() != sfen || p.Key() != key || p.Checkers() != checkers {
				fail(fmt.Errorf("UndoMove gives %s", p.SFEN()))
			}
			p.DoMove(m)
		}
		if cfg.start == StartSFEN && !fullSet(p) {
			t.Fatalf("game %d: pieces lost or made: %s", g, p.SFEN())
		}
		for p.Ply() > 0 {
			p.UndoMove()
		}
		if p.SFEN() != root {
			t.Fatalf("game %d: undoing every move gives %s", g, p.SFEN())
		}
	}
	return positions
}

// TestRandomGames plays fixed-seed random games and checks every
// position: consistency with the mailbox, key, SFEN round trip, do/undo;
// on a sample every GenKind against its definition and LegalAll against
// the brute force.
func TestRandomGames(t *testing.T) {
	games, genEvery, bruteEvery := *randomGamesN, 10, 20
	if *randomFull {
		genEvery, bruteEvery = 1, 1
	}
	if testing.Short() {
		games = min(games, 100)
	}
	for _, tc := range []struct {
		name  string
		sfen  string
		games int
	}{
		{"startpos", StartSFEN, games},
		{"matsuri", matsuriSFEN, games / 10},
		{"max593", max593SFEN, games / 20},
		{"uchifuzume-corner", posUchiCorner, games / 20},
		{"no-black-king", posUchiNoKing, games / 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n := randomGames(t, randomConfig{seed: 1, start: tc.sfen, games: tc.games, maxPly: 300,
				genEvery: genEvery, bruteEvery: bruteEvery})
			t.Logf("%d games, %d positions", tc.games, n)
		})
	}
}

// TestBruteForceOrigins checks that IsLegal rejects every move from an
// empty square or an opponent piece, which bruteForceLegal skips.
func TestBruteForceOrigins(t *testing.T) {
	for _, sfen := range []string{StartSFEN, matsuriSFEN, max593SFEN, posPins} {
		p := mustParse(t, sfen)
		for from := Square(0); from < SquareNB; from++ {
			pc := p.board[from]
			if pc != NoPiece && pc.Color() == p.side {
				continue
			}
			for to := Square(0); to < SquareNB; to++ {
				for _, promo := range []Move16{0, movePromote} {
					m := p.ToMove(Move16(to) | Move16(from)<<7 | promo)
					if ok, why := p.IsLegal(m); ok || (why != IllegalNoPiece && why != IllegalNotOwnPiece && why != IllegalUnreachable && why != IllegalNoMove) {
						t.Errorf("%s: IsLegal(%v) = %v, %q", sfen, m, ok, why)
					}
				}
			}
		}
	}
}

// TestSliderAttacks compares the table-driven attacks with a board walk
// for every square and piece: for each of the four lines through the
// square, every occupancy of the line's other squares (with random pieces
// off the line), and then many random occupancies.
func TestSliderAttacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	randomOcc := func() Bitboard {
		if rng.IntN(2) == 0 {
			return Bitboard{rng.Uint64() & loMask, rng.Uint64() & hiMask}
		}
		return Bitboard{rng.Uint64() & rng.Uint64() & loMask, rng.Uint64() & rng.Uint64() & hiMask}
	}
	check := func(s Square, occ Bitboard) {
		t.Helper()
		for c := Black; c <= White; c++ {
			for pt := Pawn; pt < PieceTypeNB; pt++ {
				pc := NewPiece(c, pt)
				if got, want := Attacks(pc, s, occ), naiveAttacks(pc, s, occ); got != want {
					t.Fatalf("Attacks(%v, %v) with occupancy\n%v=\n%vwant\n%v", pc, s, occ, got, want)
				}
			}
		}
	}
	for s := Square(0); s < SquareNB; s++ {
		for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
			var line []Square
			for _, sg := range []int{1, -1} {
				for f, r := s.File()+sg*d[0], s.Rank()+sg*d[1]; f >= 1 && f <= 9 && r >= 1 && r <= 9; f, r = f+sg*d[0], r+sg*d[1] {
					line = append(line, NewSquare(f, r))
				}
			}
			var lineBB Bitboard
			for _, l := range line {
				lineBB = lineBB.Set(l)
			}
			for mask := 0; mask < 1<<len(line); mask++ {
				occ := randomOcc().AndNot(lineBB).Clear(s)
				for j, l := range line {
					if mask&(1<<j) != 0 {
						occ = occ.Set(l)
					}
				}
				check(s, occ)
			}
		}
	}
	for i := 0; i < 500; i++ {
		occ := randomOcc()
		for s := Square(0); s < SquareNB; s++ {
			check(s, occ)
		}
	}
}

// TestBetweenLine checks Between, Line and Aligned by walking the board.
func TestBetweenLine(t *testing.T) {
	for a := Square(0); a < SquareNB; a++ {
		for b := Square(0); b < SquareNB; b++ {
			df, dr := b.File()-a.File(), b.Rank()-a.Rank()
			aligned := a != b && (df == 0 || dr == 0 || df == dr || df == -dr)
			var between, line Bitboard
			if aligned {
				sf, sr := sign(df), sign(dr)
				for f, r := a.File()+sf, a.Rank()+sr; NewSquare(f, r) != b; f, r = f+sf, r+sr {
					between = between.Set(NewSquare(f, r))
				}
				for s := Square(0); s < SquareNB; s++ {
					ef, er := s.File()-a.File(), s.Rank()-a.Rank()
					if ef*sr == er*sf {
						line = line.Set(s)
					}
				}
			}
			if Between(a, b) != between || Line(a, b) != line {
				t.Fatalf("Between/Line(%v, %v) wrong", a, b)
			}
			for c := Square(0); c < SquareNB; c++ {
				if Aligned(a, b, c) != line.Has(c) {
					t.Fatalf("Aligned(%v, %v, %v) wrong", a, b, c)
				}
			}
		}
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// TestPawnsAttacks checks PawnsAttacks against PawnAttacks on random sets
// of pawns, none on its last rank.
func TestPawnsAttacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for range 2000 {
		for c := Black; c <= White; c++ {
			var pawns, want Bitboard
			for s := Square(0); s < SquareNB; s++ {
				if s.RelativeRank(c) > 1 && rng.IntN(3) == 0 {
					pawns = pawns.Set(s)
					want = want.Or(PawnAttacks(c, s))
				}
			}
			if got := PawnsAttacks(c, pawns); got != want {
				t.Fatalf("PawnsAttacks(%v,\n%v) =\n%vwant\n%v", c, pawns, got, want)
			}
		}
	}
}
