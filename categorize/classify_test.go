package categorize

import (
	"slices"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

// position sets up the position after prev (a USI move, "" for none)
// from the SFEN before it, so that the position knows its last move and
// what it captured.
func position(t *testing.T, sfen, prev string) *kifu.Position {
	t.Helper()
	s := "sfen " + sfen
	if prev != "" {
		s += " moves " + prev
	}
	pos, err := kifu.ParseUSIPosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

func move(t *testing.T, pos *kifu.Position, usi string) kifu.Move {
	t.Helper()
	m, err := pos.ParseUSIMove(usi)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestClassifyTable checks the exact category set and SEE gain of named
// moves of real positions (from the self-play games: the SFEN before the
// previous move, then that move), for every family and grade, with the
// negative cases the definitions hinge on. Each category of the list
// appears at least once.
func TestClassifyTable(t *testing.T) {
	tests := []struct {
		name       string
		sfen, prev string
		move       string
		gain       int
		want       []string
	}{
		{"attack/silver/by-knight; attack by a knight drop", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "N*6c", 0, []string{"attack/silver/by-knight", "drop/knight/ok"}},
		{"attack/bishop/by-pawn; attack by a pawn drop", "lnsr5/2g2k2+B/ppp1g4/3p2S2/4p1p2/2PB1Pn2/PPSP3PP/6R2/LN1GKG1SL b L4Pnp 73", "6f5e", "P*5d", 0, []string{"attack/bishop/by-pawn", "drop/pawn/ok"}},
		{"capture, not a recapture: the previous move captured elsewhere", "lns+B5/1s7/pp2+R4/1kpp1g3/G5p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w GN6Pb 106", "8d9e", "6a8c", -6, []string{"capture/loss", "move/horse/loss"}},
		{"discovered check (the silver uncovers the rook)", "lnr3b1l/3sg4/3s1p1kn/pp1pP1S1p/4p2p1/PP1P1P2P/2PG2R2/1BG6/LN3K1NL w Gs4p 94", "2c3b", "3d4e", 0, []string{"check/even", "move/silver/ok"}},
		{"fork with the king", "lns+B5/1s2+R4/pp1k5/2pp1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w 2GN6Pb 102", "6c7c", "5b5c", 0, []string{"check/even", "fork/gold", "move/dragon/ok"}},
		{"fork/pawn; fork of two undefended pieces", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "G*5e", 0, []string{"fork/pawn", "drop/gold/ok"}},
		{"attack by a knight move", "+Nk1l+R1+S1l/9/2Gssp2n/pp1p4p/4p2p1/PP1P1P2P/2PG2N2/1BG3K2/LN6+s w BGLPr4p 132", "8a7a", "3g4e", 0, []string{"attack/silver/by-knight", "move/knight/ok"}},
		{"move/pro-lance/ok; not an escape: attacked but defended, so not en prise", "lns+B5/1s7/pppk5/3p1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL b R2GN6Pb 99", "R*5a", "4h4i", 0, []string{"move/pro-lance/ok"}},
		{"not an escape: en prise, and en prise again on the destination", "lns+B5/9/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/3K1+lR2/LN1G3SL w RGN6Pgs 94", "S*8b", "3h3i", -20, []string{"move/rook/loss"}},
		{"escape/silver; escape through an x-ray threat", "lns+B5/1s7/pppk5/3p1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL b R2GN6Pb 99", "R*5a", "7a7b", 0, []string{"escape/silver", "move/silver/ok"}},
		{"not a fork: the pawn is defended and cheaper", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "G*4e", 0, []string{"drop/gold/ok"}},
		{"attack/bishop/by-knight", "lnsr5/2g2k2+B/ppp1g4/3p1pS2/4B1p2/2P2Pn2/PPSP3PP/6R2/LN1GKG1SL b L5Pn 75", "1b2c", "N*6c", 0, []string{"attack/bishop/by-knight", "drop/knight/ok"}},
		{"attack/gold/by-knight", "lns+B5/1s2+R4/pp1k5/2pp1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w 2GN6Pb 102", "6c7c", "N*5f", 0, []string{"attack/gold/by-knight", "drop/knight/ok"}},
		{"attack/gold/by-pawn", "lnsr5/2g2k2+B/ppp1g4/3p2S2/4p1p2/2PB1Pn2/PPSP3PP/6R2/LN1GKG1SL b L4Pnp 73", "6f5e", "P*4h", 0, []string{"attack/gold/by-pawn", "drop/pawn/ok"}},
		{"attack/king/by-knight", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "N*9f", 0, []string{"check/even", "attack/king/by-knight", "drop/knight/ok"}},
		{"attack/king/by-pawn", "lns+B5/1s7/pp2+R4/1kpp1g3/G5p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w GN6Pb 106", "8d9e", "9g9f", 0, []string{"check/even", "attack/king/by-pawn", "move/pawn/ok"}},
		{"attack/rook/by-knight", "lnsr5/2g2k2+B/pppp1g3/9/4p1p2/2PB1P3/PPSP3PP/5RS2/LN1GKG1+pL b SL3P2np 67", "3h2i", "N*5f", 0, []string{"attack/rook/by-knight", "drop/knight/ok"}},
		{"attack/rook/by-pawn", "ln4gnl/2r1g1kb1/1p1ss2p1/p2p1pP1p/2P1P2P1/P2PpPR1P/1P1S5/1BGG3S1/LN3K1NL w Pp 54", "7b7e", "P*7f", 0, []string{"attack/rook/by-pawn", "drop/pawn/ok"}},
		{"attack/silver/by-pawn", "lnsr5/2g2k2+B/ppp1g4/3p2S2/4p1p2/2PB1Pn2/PPSP3PP/6R2/LN1GKG1SL b L4Pnp 73", "6f5e", "P*2h", 0, []string{"attack/silver/by-pawn", "drop/pawn/ok"}},
		{"capture/even", "lns3r2/2g1k3+B/pppp1gs1p/4p1p2/4l1PN1/2PB1P3/PPSPP2PP/5RS2/LN1GKG1NL w 2P 54", "3c4b", "3e3d", 0, []string{"capture/even", "move/pawn/ok"}},
		{"capture/gain+1", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "5c6d", 2, []string{"capture/gain+1", "move/dragon/ok"}},
		{"capture/gain+2", "lnsr5/3k5/ppp1g4/3p2+B2/4B1p2/2P2Pn2/PPSP3PP/6R2/LN1G1K1SL b GNL6Pgs 87", "L*6c", "5c6c", 6, []string{"capture/gain+2", "move/gold/ok"}},
		{"capture/gain+3", "lns+B5/9/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/5+lR2/LN1GK2SL b RGN6Pgs 93", "5i6h", "4h3h", 11, []string{"capture/gain+3", "move/pro-lance/ok"}},
		{"capture/gain+4", "lns+B5/1s7/pp2+R4/1kpp1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL b 2GN6Pb 105", "G*9e", "8d9e", 12, []string{"capture/gain+4", "move/king/ok"}},
		{"capture/gain+5", "lnsgk3+B/3r3s1/pppp1p1bp/4p1p2/9/2P6/PPSPPPPPP/5R3/LN1GKGSNL b NLPg 23", "L*2f", "2b1a", 18, []string{"capture/gain+5", "move/silver/ok"}},
		{"capture/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "6a7a", -8, []string{"capture/loss", "move/horse/loss"}},
		{"check/even", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "G*9e", 0, []string{"check/even", "drop/gold/ok"}},
		{"check/gain", "lns+BR4/1s7/pppk5/3p1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w 2GN6Pb 100", "7c7d", "5a5b+", 2, []string{"check/gain", "promote/rook/ok", "move/rook/ok"}},
		{"check/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "G*9d", -12, []string{"check/loss", "drop/gold/loss"}},
		{"drop/bishop/loss", "lns+B5/1s7/pppk5/3p1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL b R2GN6Pb 99", "R*5a", "B*9h", -16, []string{"drop/bishop/loss"}},
		{"drop/bishop/ok", "lns+B5/1s2+R4/ppk6/2pp1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL b 2GN6Pb 103", "5b5c", "B*6c", 0, []string{"drop/bishop/ok"}},
		{"drop/gold/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "G*9b", -12, []string{"drop/gold/loss"}},
		{"drop/gold/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "G*9h", 0, []string{"drop/gold/ok"}},
		{"drop/knight/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "N*9d", -8, []string{"drop/knight/loss"}},
		{"drop/knight/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "N*9h", 0, []string{"drop/knight/ok"}},
		{"drop/lance/loss", "lnsr5/9/pppkg4/3p2+B2/4B1p2/2P2Pn2/PPSP3PP/6R2/LN1G1K1SL b GN6Pgsl 89", "3d6a", "L*9h", -6, []string{"drop/lance/loss"}},
		{"drop/lance/ok", "lnsr5/9/pppkg4/3p2+B2/4B1p2/2P2Pn2/PPSP3PP/6R2/LN1G1K1SL b GN6Pgsl 89", "3d6a", "L*9e", 0, []string{"drop/lance/ok"}},
		{"drop/pawn/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "P*3i", -2, []string{"drop/pawn/loss"}},
		{"drop/pawn/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "P*5i", 0, []string{"drop/pawn/ok"}},
		{"drop/rook/loss", "lns+B5/1s7/pppkg4/3p1B3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w R2GN6P 98", "5c4d", "R*9d", -20, []string{"drop/rook/loss"}},
		{"drop/rook/ok", "lns+B5/1s7/pppkg4/3p1B3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w R2GN6P 98", "5c4d", "R*9h", 0, []string{"drop/rook/ok"}},
		{"drop/silver/loss", "lns+B5/9/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/5+lR2/LN1GK2SL b RGN6Pgs 93", "5i6h", "S*9h", -10, []string{"drop/silver/loss"}},
		{"drop/silver/ok", "lns+B5/9/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/5+lR2/LN1GK2SL b RGN6Pgs 93", "5i6h", "S*9e", 0, []string{"drop/silver/ok"}},
		{"escape/bishop", "lns+B5/1s7/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w RGN6Pg 96", "G*4d", "5e6f", 0, []string{"escape/bishop", "move/bishop/ok"}},
		{"escape/dragon", "l8/1+r4k2/2n+B+P1g2/p1p3n1p/6Ps1/P2S3pP/2GB1+p3/1P4G2/L1KR3NL b GSNL6Ps2p 167", "G*7b", "8b9c", 0, []string{"escape/dragon", "move/dragon/ok"}},
		{"escape/gold", "lnsr5/2gk5/ppp1g4/3p1S+B2/4B1p2/2P2Pn2/PPSP3PP/6R2/LN1GK+n1SL b L6Pg 83", "5i4i", "5c6c", 0, []string{"escape/gold", "move/gold/ok"}},
		{"escape/horse", "lnsrk3+B/2g2g3/pppp2s1p/4p1p2/4l1n2/2PB1PP2/PPSPP2PP/5RS2/LN1GKG1NL w 2P 48", "5a5b", "1a1b", 0, []string{"escape/horse", "move/horse/ok"}},
		{"escape/knight", "lnsr5/2g1k+N2+B/pppp1g3/4p4/4l1p2/2PB1P3/PPSPP2PP/5RSp1/LN1GKG1NL w S3P 62", "5b4b", "2i3g", 0, []string{"escape/knight", "move/knight/ok"}},
		{"escape/lance", "lnsr5/2g2k2+B/pppp1g3/4p4/4P1p2/2PB1P3/PPSP3PP/5RS2/LN1GKG1+pL w SL3P2n 66", "5d5e", "1i1h", 0, []string{"escape/lance", "move/lance/ok"}},
		{"escape/pawn", "lns+B5/9/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/5+lR2/LN1GK2SL b RGN6Pgs 93", "5i6h", "8c8d", 0, []string{"escape/pawn", "move/pawn/ok"}},
		{"escape/rook", "lns+B5/9/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/3K1+lR2/LN1G3SL w RGN6Pgs 94", "S*8b", "3h3g", 0, []string{"escape/rook", "move/rook/ok"}},
		{"fork/bishop", "5n2l/2g1+B4/1sn3pk1/l1pP4p/pp2BR3/2P1S3P/PPN1P2n1/2GS1p3/L4K2L b RS4P2g2p 123", "4i4h", "G*5d", 0, []string{"fork/bishop", "drop/gold/ok"}},
		{"fork/dragon", "2p5l/1+r4k2/3p1pn1p/4L1pp1/2PG5/P1S1PP3/3P2PP1/3GKGS1P/+r1+n3S2 w 2BNPgsn2l3p 212", "7i7h", "B*5e", 0, []string{"fork/dragon", "drop/bishop/ok"}},
		{"fork/gold", "5n2l/2g1r4/1sn2BpP1/l1pP2k1p/pp2BR3/2P1S3P/PPN1P4/2GS5/L5K1L w S4P2gn2p 118", "3d2c", "S*6c", 0, []string{"fork/gold", "drop/silver/ok"}},
		{"fork/horse", "2p2g1nl/2+R1sk1s1/p2+B1p1pp/4p+bp2/9/7P1/P3PPP1P/4G4/1NS1KGSNL b R4Pgn2lp 63", "7b8b", "G*7b", 0, []string{"fork/horse", "drop/gold/ok"}},
		{"fork/knight", "lnrk2+S1l/3sg4/3s1p2n/pp1pP3p/4p2p1/PP1P1P2P/2PG2R2/1BG6/LN3K1NL b BGs4p 101", "G*8b", "S*2h", 0, []string{"fork/knight", "drop/silver/ok"}},
		{"fork/lance", "ln1k2+S1l/1G1sg4/2rs1p2n/pp1pP3p/4p2p1/PP1P1P2P/2PG2R2/1BG6/LN3K1NL b Bs4p 103", "3g3b+", "S*2h", 0, []string{"fork/lance", "drop/silver/ok"}},
		{"fork/rook", "2+N3+P1K/7+P1/1p2+N+P2p/pg7/3Ps1P2/3g1p3/1k+b3R1P/g1P1+pS1+l1/5R3 b BN2LPg2snl5p 261", "B*9a", "G*3h", 0, []string{"fork/rook", "drop/gold/ok"}},
		{"fork/silver", "lns+B5/9/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/5+lR2/LN1GK2SL b RGN6Pgs 93", "5i6h", "G*3i", 0, []string{"fork/silver", "drop/gold/ok"}},
		{"move/bishop/loss", "lns+B5/9/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/3K1+lR2/LN1G3SL w RGN6Pgs 94", "S*8b", "5e4d", -16, []string{"move/bishop/loss"}},
		{"move/bishop/ok", "lns+B5/9/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/3K1+lR2/LN1G3SL w RGN6Pgs 94", "S*8b", "5e6f", 0, []string{"move/bishop/ok"}},
		{"move/dragon/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "5c6b", -12, []string{"move/dragon/loss"}},
		{"move/dragon/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "5c6c", 0, []string{"move/dragon/ok"}},
		{"move/gold/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "6i5i", -3, []string{"move/gold/loss"}},
		{"move/gold/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "6i7i", 0, []string{"move/gold/ok"}},
		{"move/horse/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "6a7b", -18, []string{"move/horse/loss"}},
		{"move/horse/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "6a5b", 0, []string{"move/horse/ok"}},
		{"move/king/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "6h7i", 0, []string{"move/king/ok"}},
		{"move/knight/loss", "lns3r2/2g1k3+B/pppp1gs1p/4p1p2/4l1PN1/2PB1P3/PPSPP2PP/5RS2/LN1GKG1NL w 2P 54", "3c4b", "2e3c", -8, []string{"move/knight/loss"}},
		{"move/knight/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "8i7g", 0, []string{"move/knight/ok"}},
		{"move/lance/loss", "lnsr5/2g1ks1+N+B/pppp1g3/4p4/4l1p2/2PB1P3/PPSPP2PP/5RS2/LN1GKG1NL b 3Pp 59", "2b3b", "5e5f", -6, []string{"move/lance/loss"}},
		{"move/lance/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "9i9h", 0, []string{"move/lance/ok"}},
		{"move/pawn/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "7f7e", -2, []string{"move/pawn/loss"}},
		{"move/pawn/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "9g9f", 0, []string{"move/pawn/ok"}},
		{"move/pro-knight/loss", "lnsr5/2g1ks+N1+B/pppp1g3/4p4/4l1p2/2PB1P3/PPSPP2PP/5RS2/LN1GKG1NL w 3Pp 60", "P*2h", "3b4a", -10, []string{"move/pro-knight/loss"}},
		{"move/pro-knight/ok", "lnsr5/2g1ks+N1+B/pppp1g3/4p4/4l1p2/2PB1P3/PPSPP2PP/5RS2/LN1GKG1NL w 3Pp 60", "P*2h", "3b2b", 0, []string{"move/pro-knight/ok"}},
		{"move/pro-lance/loss", "lns+B5/1s7/pppk5/3p1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL b R2GN6Pb 99", "R*5a", "4h5i", -9, []string{"move/pro-lance/loss"}},
		{"move/pro-pawn/loss", "lnsr5/2g2k2+B/pppp1g3/4p4/4l1p2/2PBPP3/PPSP3PP/5RS2/LN1GKG1+pL b S3P2n 65", "5f5e", "2i3i", -7, []string{"move/pro-pawn/loss"}},
		{"move/pro-pawn/ok", "5+B2l/2g3gg1/1sn+P2pk1/l1p4Rp/pp2pR3/2P1SB2P/PPN1P2n1/2GS1K3/L7L w SN6P 134", "2c1b", "6c6d", 0, []string{"move/pro-pawn/ok"}},
		{"move/pro-silver/loss", "Rgkl+R1+S1l/9/2Gssp2n/pp1p4p/4p2p1/PP1P1P2P/2PG2p2/1BG3K2/LN5N+s b BNL4p 127", "2i3g", "1i2i", -11, []string{"move/pro-silver/loss"}},
		{"move/pro-silver/ok", "+Nk1l+R1+S1l/9/2Gssp2n/pp1p4p/4p2p1/PP1P1P2P/2PG2N2/1BG3K2/LN6+s w BGLPr4p 132", "8a7a", "3a4a", 0, []string{"move/pro-silver/ok"}},
		{"move/rook/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "1h3h", -11, []string{"move/rook/loss"}},
		{"move/rook/ok", "lns+BR4/1s7/pppk5/3p1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w 2GN6Pb 100", "7c7d", "5a5g", 0, []string{"move/rook/ok"}},
		{"move/silver/loss", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "2i3h", -1, []string{"move/silver/loss"}},
		{"move/silver/ok", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "8f7g", 0, []string{"move/silver/ok"}},
		{"promote/bishop/loss", "lnsr5/3k5/pppLg4/3p2+B2/4B1p2/2P2Pn2/PPSP3PP/6R2/LN1G1K1SL w GN6Pgs 88", "6b6c", "5e1a+", -16, []string{"promote/bishop/loss", "move/bishop/loss"}},
		{"promote/bishop/ok", "lns+B5/9/pppkg4/3p5/4B1p2/2P2Pn2/PPSP3PP/3K1+lR2/LN1G3SL w RGN6Pgs 94", "S*8b", "5e3c+", 2, []string{"promote/bishop/ok", "move/bishop/ok"}},
		{"promote/knight/loss", "lns+B5/1s7/pppk5/3p1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL b R2GN6Pb 99", "R*5a", "3f2h+", -8, []string{"promote/knight/loss", "move/knight/loss"}},
		{"promote/knight/ok", "7nl/1+R2gk1s1/5p1pp/p3p1p2/3+b5/R2n3P1/P3PPP1P/4G1S2/1N+l1KG1+lL b BS3Pgsn3p 89", "S*6c", "6f7h+", 2, []string{"promote/knight/ok", "move/knight/ok"}},
		{"promote/lance/loss", "1ng1r3+P/b7R/2sp2sk1/1pp3ppp/3G2g2/2PP1L1P1/1+pS2PP1P/5S2B/1N1G1K1NL w N2L3Pp 80", "3c2b", "4f4a+", -6, []string{"promote/lance/loss", "move/lance/loss"}},
		{"promote/lance/ok", "1ng1r3+P/b7R/2sp2sk1/1pp3ppp/3G2g2/2PP1L1P1/1+pS2PP1P/5S2B/1N1G1K1NL w N2L3Pp 80", "3c2b", "4f4c+", 3, []string{"promote/lance/ok", "move/lance/ok"}},
		{"promote/pawn/loss", "Rgkl+R1+S1l/9/3ssp2n/pp1p4p/4p2p1/PP1P1Pp1P/2PG5/1BG6/LN3K1N+s b GNLb4p 123", "G*7c", "3f3g+", -2, []string{"promote/pawn/loss", "move/pawn/loss"}},
		{"promote/pawn/ok", "5+B2l/2g4g1/1sn3pk1/l1pP4p/pp2BR3/2P1S3P/PPN1P2n1/2GS1K3/L7L w RSN5Pg2p 126", "G*3b", "6d6c+", 5, []string{"promote/pawn/ok", "move/pawn/ok"}},
		{"promote/rook/loss", "lns+BR4/1s7/pppk5/3p1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w 2GN6Pb 100", "7c7d", "5a5i+", -11, []string{"promote/rook/loss", "move/rook/loss"}},
		{"promote/rook/ok", "lns+BR4/1s7/pppk5/3p1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w 2GN6Pb 100", "7c7d", "5a5g+", 2, []string{"promote/rook/ok", "move/rook/ok"}},
		{"promote/silver/loss", "lns1k3+B/2gr1g3/pppp3np/4pSp2/6b2/2P2P3/PPSPP1PPP/5R3/LN1GKGSNL w 2Pl 40", "6b6a", "4d5c+", -10, []string{"promote/silver/loss", "move/silver/loss"}},
		{"promote/silver/ok", "lnsr5/2gk5/ppp1g4/3p1S+B2/4B1p2/2P2Pn2/PPSP3PP/6R2/LN1G1K1SL w NL6Pg 84", "7b6c", "4d4c+", 1, []string{"promote/silver/ok", "move/silver/ok"}},
		{"recapture/even", "lnsr5/2g2k2+B/pppp1g3/4p4/4l1p2/2PBPP3/PPSP3PP/5RS2/LN1GKG1+pL b S3P2n 65", "5f5e", "5d5e", 0, []string{"recapture/even", "move/pawn/ok"}},
		{"recapture/gain+1", "lnsr5/2g2k2+B/pppp1g3/4p4/4P1p2/2PB1P3/PPSP3PP/5RS2/LN1GKG1+pL w SL3P2n 66", "5d5e", "6f5e", 2, []string{"recapture/gain+1", "move/bishop/ok"}},
		{"recapture/gain+2", "lnsr5/2g2k2+B/pppp1g3/4p4/4l1p2/2PBPP3/PPSP3PP/5RSp1/LN1GKG1NL w S3Pn 64", "2h2i+", "3h2i", 7, []string{"recapture/gain+2", "move/silver/ok"}},
		{"recapture/gain+3", "lnsr5/3k5/pppgg4/3p1S+B2/4B1p2/2P2Pn2/PPSP3PP/6R2/LN1G1K1SL b NL6Pg 85", "4d5c", "6c5c", 10, []string{"recapture/gain+3", "move/gold/ok"}},
		{"recapture/gain+4", "lns+B5/1s7/pppkg4/3p1g3/4B1p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL b RGN6P 97", "5e4d", "5c4d", 16, []string{"recapture/gain+4", "move/gold/ok"}},
		{"recapture/gain+5", "lnsgk2nl/r5g2/pppp1ps+Bp/4p1p2/9/2P6/PPSPPPPPP/5R3/LN1GKGSNL b BP 13", "2c3b", "9b3b", 18, []string{"recapture/gain+5", "move/rook/ok"}},
		{"recapture/loss", "lnsr5/2gk5/ppp1g1S2/3p1p+B2/4B1p2/2P2Pn2/PPSPn2PP/6R2/LN1GKG1SL b L5P 81", "3c4d", "5c4d", -2, []string{"recapture/loss", "move/gold/loss"}},
	}
	covered := map[string]bool{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos := position(t, tc.sfen, tc.prev)
			m := move(t, pos, tc.move)
			set := Classify(pos, pos.LastMove(), m)
			if got := names(set); !slices.Equal(got, tc.want) {
				t.Errorf("%s after %s: %s: got %v, want %v", pos.SFEN(), tc.prev, tc.move, got, tc.want)
			}
			if got := SEE(pos, m); got != tc.gain {
				t.Errorf("%s: SEE %d, want %d", tc.move, got, tc.gain)
			}
		})
		for _, n := range tc.want {
			covered[n] = true
		}
	}
	for _, i := range List() {
		if !covered[i.Name] {
			t.Errorf("no table case has %s", i.Name)
		}
	}
}

// TestCheckKinds checks the direct and discovered check facts.
func TestCheckKinds(t *testing.T) {
	tests := []struct {
		name, sfen, prev, move string
		direct, discovered     bool
	}{
		{"discovered: the silver uncovers the rook", "lnr3b1l/3sg4/3s1p1kn/pp1pP1S1p/4p2p1/PP1P1P2P/2PG2R2/1BG6/LN3K1NL w Gs4p 94", "2c3b", "3d4e", false, true},
		{"no discovery along the line: the silver stays between", "lnr3b1l/3sg4/3s1p1kn/pp1pP1S1p/4p2p1/PP1P1P2P/2PG2R2/1BG6/LN3K1NL w Gs4p 94", "2c3b", "3d3c+", true, false},
		{"direct, by a drop", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "G*9e", true, false},
		{"direct, promoting", "lns+BR4/1s7/pppk5/3p1g3/6p2/2P2Pn2/PPSP3PP/3K1+l2R/LN1G3SL w 2GN6Pb 100", "7c7d", "5a5b+", true, false},
		{"no check", "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d", "9g9f", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos := position(t, tc.sfen, tc.prev)
			var c Classifier
			c.Reset(pos, pos.LastMove())
			f := c.Facts(move(t, pos, tc.move))
			if f.Has(FlagDirectCheck) != tc.direct || f.Has(FlagDiscoveredCheck) != tc.discovered || f.Has(FlagCheck) != (tc.direct || tc.discovered) {
				t.Errorf("flags %#x, want direct %v discovered %v", f.Flags, tc.direct, tc.discovered)
			}
		})
	}
}

// TestSEE checks the static exchange evaluation on small positions built
// for each rule of the definition, with the exchange worked out by hand.
func TestSEE(t *testing.T) {
	tests := []struct {
		name, sfen, move string
		want             int
	}{
		// R takes P (+2), G takes R (20), the lance behind the rook's
		// vacated origin takes G (12): 2 - (20 - 12) = -6 (without the
		// x-ray: -18).
		{"x-ray through the vacated origin", "8k/9/9/5g3/4p4/9/9/4R4/K3L4 b - 1", "5h5e", -6},
		// P takes P (+2); the king may not recapture: the knight still
		// attacks 5e.
		{"the king does not capture onto a defended square", "9/9/9/5k3/4p4/4P4/5N3/9/K8 b - 1", "5f5e", 2},
		{"the king recaptures an undefended square", "9/9/9/5k3/4p4/4P4/9/9/K8 b - 1", "5f5e", 0},
		// From a game: S to 7h; the knight takes it (10) and the king
		// may not recapture, for the promoted knight on 6h still attacks
		// 7h: -10.
		{"the king does not capture in a longer exchange", "lns5l/3r1gk2/p4g3/1pp2ppP1/9/Pn1Pp+bG1P/1SB3P1N/3+n5/LK2G3L b 3Pr2s4p 91", "8g7h", -10},
		// S takes P (+2); s takes S (10), R takes s (10), g takes R (20),
		// the second rook, behind the first, takes g (12):
		// 2 - (10 - (10 - (20 - 12))) = -6 (without the x-ray: -8).
		{"x-ray behind a capturer", "8k/9/9/3s1g3/4p4/5S3/9/4R4/K3R4 b - 1", "4f5e", -6},
		// S takes P (+2); the gold, pinned on its king by the rook,
		// recaptures all the same (10): -8.
		{"pins are ignored", "9/9/9/k3g3R/4p4/5S3/9/9/K8 b - 1", "4f5e", -8},
		// B takes S (+10), G takes B (16), P takes G (12, no promotion),
		// R takes P (2, not a tokin's 7): 10 - (16 - (12 - 2)) = 4.
		{"recaptures do not promote", "k3r4/5g3/4s4/4P4/2B6/9/9/9/K8 b - 1", "7e5c", 4},
		// The same, promoting: first term 10 + 2; the horse is worth 18.
		{"the move itself promotes", "k3r4/5g3/4s4/4P4/2B6/9/9/9/K8 b - 1", "7e5c+", 4},
		{"a drop: first term 0, the pawn takes the gold", "8k/9/9/4p4/9/9/9/9/K8 b G 1", "G*5e", -12},
		{"a defended drop: p takes G (12), P takes p (2)", "8k/9/9/4p4/9/4P4/9/9/K8 b G 1", "G*5e", -10},
		{"a quiet move to an unattacked square", "8k/9/9/4p4/9/9/9/9/K3L4 b - 1", "5i5h", 0},
		{"a promotion nobody can answer", "8k/9/9/9/9/9/9/9/K3L4 b - 1", "5i5c+", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos := position(t, tc.sfen, "")
			m := move(t, pos, tc.move)
			if got := SEE(pos, m); got != tc.want {
				t.Errorf("SEE %d, want %d", got, tc.want)
			}
			if got := refSEE(pos, m); got != tc.want {
				t.Errorf("reference SEE %d, want %d", got, tc.want)
			}
			var c Classifier
			c.Reset(pos, kifu.MoveNone)
			if got := c.SEE(m); got != tc.want {
				t.Errorf("Classifier.SEE %d, want %d", got, tc.want)
			}
		})
	}
}

// TestRecaptureNeedsPrev checks that the same capture is a recapture only
// when the previous move captured on that square.
func TestRecaptureNeedsPrev(t *testing.T) {
	pos := position(t, "lnsgk2nl/r5g2/pppp1ps+Bp/4p1p2/9/2P6/PPSPPPPPP/5R3/LN1GKGSNL b BP 13", "2c3b")
	m := move(t, pos, "9b3b")
	tests := []struct {
		name string
		prev kifu.Move
		want string
	}{
		{"after the capture on 3b", pos.LastMove(), "recapture/gain+5"},
		{"previous move unknown", kifu.MoveNone, "capture/gain+5"},
		{"previous move without the captured piece", kifu.Move(pos.LastMove().Move16()), "capture/gain+5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := []string{tc.want, "move/rook/ok"}
			if got := names(Classify(pos, tc.prev, m)); !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// TestPlainSet checks the table of plain categories (built from moveCat
// and dropCat; see TestTablesBuilt).
func TestPlainSet(t *testing.T) {
	for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
		for _, gain := range []int{0, -1} {
			var want Set
			want.Add(MoveCategory(pt, gain))
			if got := plainSet[0][pt][okLoss(gain)]; got != want {
				t.Errorf("move %v gain %d: %v", pt, gain, names(got))
			}
			if pt.IsHandType() {
				want = Set{}
				want.Add(DropCategory(pt, gain))
				if got := plainSet[1][pt][okLoss(gain)]; got != want {
					t.Errorf("drop %v gain %d: %v", pt, gain, names(got))
				}
			}
		}
	}
}

// TestNoAllocation checks that classifying allocates nothing.
func TestNoAllocation(t *testing.T) {
	pos := position(t, "lns+B5/1s7/pp2+R4/2pp1g3/k5p2/1SP2Pn2/PP1P3PP/3K1+l2R/LN1G3SL w GN6Pbg 108", "9e8d")
	var c Classifier
	var buf [kifu.MaxMoves]Classified
	m := move(t, pos, "G*5e")
	tests := []struct {
		name string
		f    func()
	}{
		{"Classifier.ClassifyAll", func() { c.ClassifyAll(pos, pos.LastMove(), buf[:0]) }},
		{"ClassifyAll", func() { ClassifyAll(pos, pos.LastMove(), buf[:0]) }},
		{"Classify", func() { Classify(pos, pos.LastMove(), m) }},
		{"SEE", func() { SEE(pos, m) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(20, tc.f); n != 0 {
				t.Errorf("%v allocations", n)
			}
		})
	}
}
