package kifu

import (
	"bufio"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// TestParseSFENErrors checks that impossible or malformed positions are
// rejected with a message saying what is wrong.
func TestParseSFENErrors(t *testing.T) {
	const start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
	for _, tc := range []struct {
		name, sfen, want string
	}{
		{"empty", "", "want 3 or 4 fields"},
		{"board-only", start, "want 3 or 4 fields"},
		{"five-fields", start + " b - 1 1", "want 3 or 4 fields"},
		{"sfen-word-only", "sfen", "want 3 or 4 fields"},
		{"eight-ranks", "lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "board has 8 ranks, want 9"},
		{"ten-ranks", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "board has 10 ranks, want 9"},
		{"rank-too-long-digits", "lnsgkgsnl/1r5b1/ppppppppp/91/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "rank 4 has more than 9 squares"},
		{"rank-too-long-pieces", "lnsgkgsnlp/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "rank 1 has more than 9 squares"},
		{"rank-too-short", "lnsgkgsn/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "rank 1 has 8 squares, want 9"},
		{"rank-empty", "lnsgkgsnl/1r5b1/ppppppppp//9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "rank 4 has 0 squares, want 9"},
		{"rank-zero", "lnsgkgsnl/1r5b1/ppppppppp/09/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "rank 4: unknown piece '0'"},
		{"unknown-piece", "lnsgkgsnl/1r5b1/ppppppppp/4X4/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "unknown piece 'X'"},
		{"non-ascii-piece", "lnsgkgsnl/1r5b1/ppppppppp/4\xef\xbd\x904/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "unknown piece"},
		{"promoted-gold", "lnsgkgsnl/1r5b1/ppppppppp/9/4+G4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "+G cannot be promoted"[1:]},
		{"promoted-king", "lnsg+kgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "k cannot be promoted"},
		{"plus-before-digit", "lnsgkgsnl/1r5b1/ppppppppp/+9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "'+' before a digit"},
		{"double-plus", "lnsgkgsnl/1r5b1/ppppppppp/4++P4/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b - 1", "'++'"},
		{"trailing-plus", "lnsgkgsnl/1r5b1/ppppppppp/9+/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "ends with '+'"},
		{"two-black-kings", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSKKGSNL b - 1", "two Black kings"},
		{"two-white-kings", "lnskkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", "two White kings"},
		{"black-pawn-last-rank", "4k3P/9/9/9/9/9/9/9/4K4 b - 1", "P on 1a can never move"},
		{"white-pawn-last-rank", "4k4/9/9/9/9/9/9/9/p3K4 b - 1", "p on 9i can never move"},
		{"black-lance-last-rank", "L3k4/9/9/9/9/9/9/9/4K4 b - 1", "L on 9a can never move"},
		{"black-knight-second-rank", "4k4/N8/9/9/9/9/9/9/4K4 b - 1", "N on 9b can never move"},
		{"black-knight-last-rank", "N3k4/9/9/9/9/9/9/9/4K4 b - 1", "N on 9a can never move"},
		{"white-knight-eighth-rank", "4k4/9/9/9/9/9/9/4n4/3K5 b - 1", "n on 5h can never move"},
		{"nifu-black", "4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1", "two Black pawns on file 5 (二歩)"},
		{"nifu-white", "4k4/p8/9/p8/9/9/9/9/4K4 b - 1", "two White pawns on file 9 (二歩)"},
		{"nineteen-pawns", start + " b P 1", "19 pawns on board and in hand, a set has 18"},
		{"nineteen-pawns-hands", "4k4/9/9/9/9/9/9/9/4K4 b 10P9p 1", "19 pawns on board and in hand"},
		{"three-rooks", start + " b R 1", "3 rooks on board and in hand, a set has 2"},
		{"three-bishops", start + " w b 1", "3 bishops on board and in hand"},
		{"five-golds", start + " b G 1", "5 golds on board and in hand"},
		{"five-lances", start + " b L 1", "5 lances on board and in hand"},
		{"hand-over-max", "4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "19 pawn in Black's hand, at most 18"},
		{"hand-over-max-repeated", "4k4/9/9/9/9/9/9/9/4K4 b 2RR 1", "3 rook in Black's hand, at most 2"},
		{"side-not-to-move-in-check", "4k4/9/9/9/4R4/9/9/9/4K4 b - 1", "the side not to move (White) is in check"},
		{"side-not-to-move-in-check-knight", "4k4/9/9/9/9/9/5n3/9/4K4 w - 1", "the side not to move (Black) is in check"},
		{"bad-side", start + " x - 1", `side to move "x", want b or w`},
		{"upper-side", start + " B - 1", `side to move "B"`},
		{"hand-king", start + " b K 1", "unknown hand piece 'K'"},
		{"hand-promoted", start + " b +P 1", "unknown hand piece '+'"},
		{"hand-unknown", start + " b X 1", "unknown hand piece 'X'"},
		{"hand-count-only", start + " b 2 1", "hands end with a count"},
		{"hand-count-zero", "4k4/9/9/9/9/9/9/9/4K4 b 0P 1", "hand count 0 for P"},
		{"hand-count-long", "4k4/9/9/9/9/9/9/9/4K4 b 100P 1", "hand count too long"},
		{"hand-dash-mixed", "4k4/9/9/9/9/9/9/9/4K4 b -P 1", "unknown hand piece '-'"},
		{"move-number-zero", start + " b - 0", `move number "0"`},
		{"move-number-negative", start + " b - -1", `move number "-1"`},
		{"move-number-text", start + " b - one", `move number "one"`},
		{"move-number-huge", start + " b - 99999999999999999999", `move number "99999999999999999999"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseSFEN(tc.sfen)
			if err == nil {
				t.Fatalf("ParseSFEN(%q) = %s, want an error", tc.sfen, p.SFEN())
			}
			var se *SFENError
			if !errors.As(err, &se) || !errors.Is(err, ErrSFEN) {
				t.Errorf("error %v (%T) is not an SFENError wrapping ErrSFEN", err, err)
			}
			if !strings.HasPrefix(err.Error(), "kifu: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
			// AllowAnyPieceCount relaxes the piece counts and nothing else.
			p, err = ParseSFENWith(tc.sfen, SFENOptions{AllowAnyPieceCount: true})
			switch {
			case overSetCases[tc.name] && err != nil:
				t.Errorf("AllowAnyPieceCount: %v", err)
			case overSetCases[tc.name]:
				if err := checkConsistent(p); err != nil {
					t.Error(err)
				}
			case err == nil:
				t.Errorf("AllowAnyPieceCount accepts it: %s", p.SFEN())
			case !strings.Contains(err.Error(), tc.want):
				t.Errorf("AllowAnyPieceCount: error %q does not say %q", err, tc.want)
			}
		})
	}
}

// overSetCases are the cases of TestParseSFENErrors that hold more pieces
// of a kind than a set, within HandCapacity: SFENOptions.AllowAnyPieceCount
// accepts them.
var overSetCases = map[string]bool{
	"nineteen-pawns": true, "nineteen-pawns-hands": true, "three-rooks": true, "three-bishops": true,
	"five-golds": true, "five-lances": true, "hand-over-max": true, "hand-over-max-repeated": true,
}

// TestParseSFENWithAnyPieceCount checks the relaxed reading of perft
// positions: more pieces than a set are read, played and written back, up
// to what a hand can hold.
func TestParseSFENWithAnyPieceCount(t *testing.T) {
	relaxed := SFENOptions{AllowAnyPieceCount: true}
	const overfull = "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1"
	for _, tc := range []struct {
		name, sfen string
		strict     string // the strict error
	}{
		{"overfull-set", overfull, "3 bishops on board and in hand, a set has 2"},
		{"seven-golds", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3g 1", "7 golds on board and in hand, a set has 4"},
		{"thirty-one-pawns", "4k4/9/9/9/9/9/9/9/4K4 b 16P15p 1", "31 pawns on board and in hand, a set has 18"},
		{"three-rooks-in-hand", "4k4/9/9/9/9/9/9/9/4K4 b 3R 1", "3 rook in Black's hand, at most 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParseSFEN(tc.sfen); err == nil || !strings.Contains(err.Error(), tc.strict) {
				t.Errorf("ParseSFEN: error %v, want one saying %q", err, tc.strict)
			}
			p, err := ParseSFENWith(tc.sfen, relaxed)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.SFEN(); got != mustSFEN(t, tc.sfen) || !strings.HasPrefix(tc.sfen, strings.Fields(got)[0]) {
				t.Errorf("SFEN() = %q", got)
			}
			for _, check := range []func(*Position) error{checkConsistent, checkRoundTrip, func(p *Position) error { return checkGenerator(p, true) }} {
				if err := check(p); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	// A capture puts a third rook in one hand: the count must not spill
	// into the next field of Hand.
	p, err := ParseUSIPositionWith("sfen 4k4/9/9/9/4r4/9/9/1B7/4K4 b 2R 1 moves 8h5e", relaxed)
	if err != nil {
		t.Fatal(err)
	}
	if n, want := p.Hand(Black).Count(Rook), 3; n != want || p.Hand(Black).Count(Gold) != 0 {
		t.Errorf("after 8h5e: %s, %d rooks in Black's hand, want %d", p.SFEN(), n, want)
	}
	if err := checkRoundTrip(p); err != nil {
		t.Error(err)
	}
	if _, err := ParseUSIPosition("sfen " + overfull + " moves R*4g"); err == nil {
		t.Error("ParseUSIPosition accepts three rooks")
	}
	if _, err := ParseUSIPositionWith("sfen "+overfull+" moves R*4g", relaxed); err != nil {
		t.Errorf("ParseUSIPositionWith: %v", err)
	}
	for _, tc := range []struct{ sfen, want string }{
		{"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2R 1", "4 rooks on board and in hand, at most 3"},
		{"4k4/9/9/9/9/9/9/9/4K4 b 2R2r 1", "4 rooks on board and in hand, at most 3"},
		{"4k4/9/9/9/9/9/9/9/4K4 b 4B 1", "4 bishop in Black's hand, at most 3"},
		{"4k4/9/9/9/9/9/9/9/4K4 b 32P 1", "32 pawn in Black's hand, at most 31"},
		{"4k4/9/9/9/9/9/9/9/4K4 b 16P16p 1", "32 pawns on board and in hand, at most 31"},
		{"4k4/9/9/9/9/9/9/9/4K4 w 8g 1", "8 gold in White's hand, at most 7"},
	} {
		if p, err := ParseSFENWith(tc.sfen, relaxed); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSFENWith(%q): %v, want an error saying %q", tc.sfen, p, tc.want)
		}
	}
}

// TestParseSFENAccepts checks the liberties a reader must take and the
// canonical form written back.
func TestParseSFENAccepts(t *testing.T) {
	for _, tc := range []struct {
		name, sfen, want string
	}{
		{"start", StartSFEN, StartSFEN},
		{"sfen-word", "sfen " + StartSFEN, StartSFEN},
		{"no-move-number", strings.TrimSuffix(StartSFEN, " 1"), StartSFEN},
		{"extra-spaces", "  " + strings.ReplaceAll(StartSFEN, " ", "\t ") + "\n", StartSFEN},
		{"move-number-kept", strings.TrimSuffix(StartSFEN, "1") + "124", strings.TrimSuffix(StartSFEN, "1") + "124"},
		{"hands-any-order", "4k4/9/9/9/9/9/9/9/4K4 b pP2gRrbs 1", "4k4/9/9/9/9/9/9/9/4K4 b RPrb2gsp 1"},
		{"hands-two-digit", "4k4/9/9/9/9/9/9/9/4K4 b 18P 1", "4k4/9/9/9/9/9/9/9/4K4 b 18P 1"},
		{"hands-ten-pawns-both", "4k4/9/9/9/9/9/9/9/4K4 w 10p8P 1", "4k4/9/9/9/9/9/9/9/4K4 w 8P10p 1"},
		{"hands-repeated-letters", "4k4/9/9/9/9/9/9/9/4K4 b 2PP3P 1", "4k4/9/9/9/9/9/9/9/4K4 b 6P 1"},
		{"hands-leading-zero", "4k4/9/9/9/9/9/9/9/4K4 b 02P 1", "4k4/9/9/9/9/9/9/9/4K4 b 2P 1"},
		{"all-promoted", "4k4/9/9/9/+P+L+N+S+B+R3/9/9/9/4K4 b - 1", "4k4/9/9/9/+P+L+N+S+B+R3/9/9/9/4K4 b - 1"},
		{"split-empty-runs", "4k4/9/9/9/9/9/9/9/11111K111 b - 1", "4k4/9/9/9/9/9/9/9/5K3 b - 1"},
		{"no-kings", "9/9/9/9/9/9/9/9/9 b - 1", "9/9/9/9/9/9/9/9/9 b - 1"},
		{"tsume-no-black-king", posUchiNoKing, posUchiNoKing},
		{"side-to-move-in-check", "4k4/9/9/9/4R4/9/9/9/4K4 w - 1", "4k4/9/9/9/4R4/9/9/9/4K4 w - 1"},
		{"white-pawn-eighth-rank", "4k4/9/9/9/9/9/9/4p4/3K5 b - 1", "4k4/9/9/9/9/9/9/4p4/3K5 b - 1"},
		{"max-move-number", strings.TrimSuffix(StartSFEN, "1") + "9223372036854775807", strings.TrimSuffix(StartSFEN, "1") + "9223372036854775807"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseSFEN(tc.sfen)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.SFEN(); got != tc.want {
				t.Errorf("SFEN() = %q, want %q", got, tc.want)
			}
			if err := checkConsistent(p); err != nil {
				t.Error(err)
			}
			if err := checkRoundTrip(p); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestSFENAfterMoves checks the move number and BoardSFEN after moves.
func TestSFENAfterMoves(t *testing.T) {
	// Regression: the move number overflowed to a negative number that
	// ParseSFEN rejects.
	p := mustParse(t, strings.TrimSuffix(StartSFEN, "1")+"9223372036854775806")
	p.DoMove(p.LegalMoves()[0])
	p.DoMove(p.LegalMoves()[0])
	if err := checkRoundTrip(p); err != nil {
		t.Fatal(err)
	}
	if got := p.MoveNumber(); got != math.MaxInt {
		t.Errorf("MoveNumber() = %d, want math.MaxInt", got)
	}
	p = parseTestPosition(t, posExchange)
	if got, want := p.SFEN(), "lnsgkgsnl/1r5b1/p1pppp1pp/6pR1/1p7/2P6/PP1PPPP1P/1B7/LNSGKGSNL b P 11"; got != want {
		t.Errorf("SFEN() = %q, want %q", got, want)
	}
	if got, want := p.BoardSFEN(), "lnsgkgsnl/1r5b1/p1pppp1pp/6pR1/1p7/2P6/PP1PPPP1P/1B7/LNSGKGSNL b P"; got != want {
		t.Errorf("BoardSFEN() = %q, want %q", got, want)
	}
	if got := p.SFENWithMoveNumber(1); got != strings.TrimSuffix(p.SFEN(), "11")+"1" {
		t.Errorf("SFENWithMoveNumber(1) = %q", got)
	}
}

// TestParseMove16 checks USI move syntax both ways.
func TestParseMove16(t *testing.T) {
	for _, s := range []string{"7g7f", "8h2b+", "3c3d", "1a9i", "9i1a+", "P*5e", "L*1b", "N*9c", "S*1i", "G*5a", "B*4e", "R*9i"} {
		m, err := ParseMove16(s)
		if err != nil {
			t.Errorf("ParseMove16(%q): %v", s, err)
			continue
		}
		if m.USI() != s || m.String() != s || Move(m).USI() != s {
			t.Errorf("ParseMove16(%q).USI() = %q", s, m.USI())
		}
	}
	if MoveNone.USI() != "none" || MoveNull.USI() != "null" {
		t.Errorf("MoveNone, MoveNull print as %q, %q", MoveNone.USI(), MoveNull.USI())
	}
}

// TestParseMove16Errors checks that malformed USI moves are rejected.
func TestParseMove16Errors(t *testing.T) {
	for _, tc := range []struct{ s, want string }{
		{"", "want a board move"},
		{"7g7", "want a board move"},
		{"7g7f7", "want a board move"},
		{"7g7f=", "want a board move"},
		{"7g7f++", "want a board move"},
		{" 7g7f", "want a board move"},
		{"7g7f ", "want a board move"},
		{"0g7f", "bad square"},
		{"7j7f", "bad square"},
		{"7g7F", "bad square"},
		{"7G7F", "bad square"},
		{"７g7f", "want a board move"},
		{"7g7g", "origin and destination are the same square"},
		{"p*5e", "unknown drop piece"},
		{"K*5e", "unknown drop piece"},
		{"+*5e", "unknown drop piece"},
		{"P*5j", "bad destination square"},
		{"P*0e", "bad destination square"},
		{"P*5e+", "bad square"},
		{"P5e", "want a board move"},
		{"resign", "want a board move"},
		{"win", "want a board move"},
		{"pass", "bad square"},
		{"none", "bad square"},
	} {
		t.Run(tc.s, func(t *testing.T) {
			m, err := ParseMove16(tc.s)
			if err == nil {
				t.Fatalf("ParseMove16(%q) = %v, want an error", tc.s, m)
			}
			var se *MoveSyntaxError
			if !errors.As(err, &se) || !errors.Is(err, ErrMoveSyntax) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a MoveSyntaxError saying %q", err, tc.want)
			}
			if _, err := NewStartPosition().ParseUSIMove(tc.s); !errors.Is(err, ErrMoveSyntax) {
				t.Errorf("ParseUSIMove(%q) error = %v, want a syntax error", tc.s, err)
			}
		})
	}
}

// TestParseUSIPosition checks the USI position command.
func TestParseUSIPosition(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"startpos", StartSFEN},
		{"position startpos", StartSFEN},
		{"startpos moves", StartSFEN},
		{"startpos moves 7g7f 3c3d", "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"},
		{"position sfen " + StartSFEN + " moves 2g2f", "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2"},
		{"sfen 4k4/9/9/9/9/9/9/9/4K4 b G moves G*5b", "4k4/4G4/9/9/9/9/9/9/4K4 w - 2"},
		{"sfen 4k4/9/9/9/9/9/9/9/4K4 b G", "4k4/9/9/9/9/9/9/9/4K4 b G 1"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			p, err := ParseUSIPosition(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if p.SFEN() != tc.want {
				t.Errorf("got %s, want %s", p.SFEN(), tc.want)
			}
		})
	}
	for _, tc := range []struct{ in, want string }{
		{"", `want "startpos" or "sfen ..."`},
		{"position", `want "startpos" or "sfen ..."`},
		{"start", `want "startpos" or "sfen ..."`},
		{"startpos 7g7f", `want "moves" after the position`},
		{"startpos moves 7g7f 7g7f", "illegal move 7g7f"},
		{"startpos moves 7g7f 3c3d 7f7d", "the piece cannot reach the destination"},
		{"startpos moves 7g7f xx", `cannot read move "xx"`},
		{"sfen 4k4/9 b - 1 moves 5i5h", "board has 2 ranks"},
		{"sfen moves 7g7f", "want 3 or 4 fields"},
	} {
		t.Run("error/"+tc.in, func(t *testing.T) {
			p, err := ParseUSIPosition(tc.in)
			if err == nil {
				t.Fatalf("got %s, want an error", p.SFEN())
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// corpusSFENs returns the positions of testdata: perft positions, rule
// positions and testdata/positions.txt.
func corpusSFENs(t testing.TB) []string {
	t.Helper()
	var out []string
	cases, err := readPerftFile("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		out = append(out, c.SFEN)
	}
	for _, rc := range ruleCases {
		if !strings.HasPrefix(rc.pos, "startpos") {
			out = append(out, rc.pos)
		}
	}
	f, err := os.Open("testdata/positions.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, s)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCorpusPositions runs the generator checks, brute force included, on
// every position of testdata.
func TestCorpusPositions(t *testing.T) {
	sfens := corpusSFENs(t)
	if len(sfens) < 100 {
		t.Fatalf("only %d corpus positions", len(sfens))
	}
	for _, s := range sfens {
		p := mustParse(t, s)
		for _, check := range []func(*Position) error{checkConsistent, checkRoundTrip, func(p *Position) error { return checkGenerator(p, true) }} {
			if err := check(p); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
}

// FuzzSFEN checks that ParseSFEN never panics, that every accepted
// position is consistent and round-trips, and that moves can be generated
// and played on it.
func FuzzSFEN(f *testing.F) {
	for _, s := range corpusSFENs(f) {
		f.Add(s)
	}
	f.Add("")
	f.Add("sfen " + StartSFEN)
	f.Add("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 18P18p 2147483647")
	f.Fuzz(func(t *testing.T, s string) {
		// The relaxed reading accepts all the strict one does, the same way.
		p, err := ParseSFENWith(s, SFENOptions{AllowAnyPieceCount: true})
		if strict, serr := ParseSFEN(s); serr == nil && (err != nil || strict.SFEN() != p.SFEN()) {
			t.Fatalf("%q: ParseSFEN accepts it as %s, ParseSFENWith: %v", s, strict.SFEN(), err)
		}
		if err != nil {
			var se *SFENError
			if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "kifu: invalid SFEN") {
				t.Fatalf("error %v (%T)", err, err)
			}
			return
		}
		if err := checkConsistent(p); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if err := checkRoundTrip(p); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if err := checkGenerator(p, true); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		var buf [MaxMoves]Move
		for i, m := range p.GenerateMoves(LegalAll, buf[:0]) {
			if i%7 != 0 {
				continue
			}
			p.DoMove(m)
			if err := checkConsistent(p); err != nil {
				t.Fatalf("%q after %v: %v", s, m, err)
			}
			if err := checkRoundTrip(p); err != nil {
				t.Fatalf("%q after %v: %v", s, m, err)
			}
			p.UndoMove()
		}
		p.Perft(2)
	})
}

// FuzzUSIMove checks that ParseMove16 and ParseUSIMove never panic, that
// an accepted move prints back identically and that a move ParseUSIMove
// accepts is generated.
func FuzzUSIMove(f *testing.F) {
	for _, s := range []string{"7g7f", "8h2b+", "P*5e", "5i5h+", "G*5b", "7g7g", "p*5e", "K*5e", "", "1a9i", "2b3a+", "P*5b"} {
		f.Add(s)
	}
	positions := []*Position{NewStartPosition(), mustParse(f, matsuriSFEN), mustParse(f, posDrops), mustParse(f, posUchi)}
	f.Fuzz(func(t *testing.T, s string) {
		m16, err := ParseMove16(s)
		if err == nil && m16.USI() != s {
			t.Fatalf("ParseMove16(%q).USI() = %q", s, m16.USI())
		}
		for _, p := range positions {
			m, err := p.ParseUSIMove(s)
			if err != nil {
				if m != MoveNone || !(errors.Is(err, ErrMoveSyntax) || errors.Is(err, ErrIllegalMove)) {
					t.Fatalf("ParseUSIMove(%q) = %v, %v", s, m, err)
				}
				continue
			}
			if m.USI() != s {
				t.Fatalf("ParseUSIMove(%q).USI() = %q", s, m.USI())
			}
			var buf [MaxMoves]Move
			if !containsMove16(p.GenerateMoves(LegalAll, buf[:0]), m.Move16()) {
				t.Fatalf("%s: ParseUSIMove accepts %q, not generated", p.SFEN(), s)
			}
		}
	})
}
