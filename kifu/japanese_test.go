package kifu

import (
	"strings"
	"testing"
)

func TestKanjiTables(t *testing.T) {
	for pt := Pawn; pt < PieceTypeNB; pt++ {
		if got := pieceNames[kifPieceNames[pt]]; got != pt {
			t.Errorf("move-text name %q of %s reads as %s", kifPieceNames[pt], pt.Name(), got.Name())
		}
		r := []rune(bodPieceNames[pt])
		if len(r) != 1 || bodPieces[r[0]] != pt {
			t.Errorf("board-diagram name %q of %s does not read back", bodPieceNames[pt], pt.Name())
		}
		if csaPieces[csaCodes[pt]] != pt {
			t.Errorf("CSA code %q of %s does not read back", csaCodes[pt], pt.Name())
		}
	}
	for name, pt := range pieceNames {
		if r := []rune(name); len(r) == 1 && bodPieces[r[0]] != pt {
			t.Errorf("one-character name %q is not a board-diagram name", name)
		}
	}
	for v := 1; v <= 9; v++ {
		for _, s := range []string{zenDigits[v], kanjiNumerals[v], string(rune('0' + v))} {
			if digitValues[[]rune(s)[0]] != v {
				t.Errorf("digit %q does not read as %d", s, v)
			}
		}
	}
	for n := 1; n <= 18; n++ {
		if got, ok := kanjiCount(kanjiNumber(n)); !ok || got != n {
			t.Errorf("kanji count %q reads as %d, want %d", kanjiNumber(n), got, n)
		}
	}
}

func TestKIFMoveText(t *testing.T) {
	tests := []struct {
		name, sfen, usiBefore, kif, usi string
	}{
		{"plain", StartSFEN, "", "７六歩(77)", "7g7f"},
		{"same", StartSFEN, "7g7f 3c3d 8h2b+", "同　銀(31)", "3a2b"},
		{"promote", StartSFEN, "7g7f 3c3d", "２二角成(88)", "8h2b+"},
		{"drop", StartSFEN, "7g7f 3c3d 8h2b+ 3a2b", "５五角打", "B*5e"},
		{"no promotion", "4k4/9/9/5S3/9/9/9/9/4K4 b - 1", "", "３三銀不成(44)", "4d3c"},
		{"promoted piece", "4k4/9/9/5+S3/9/9/9/9/4K4 b - 1", "", "３三成銀(44)", "4d3c"},
		{"two-char same", "4k4/9/9/4p4/9/5+S3/9/9/4K4 w - 1", "5d5e", "同成銀(46)", "4f5e"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPosition(t, tt.sfen, tt.usiBefore)
			m, err := p.ParseKIFMove(tt.kif)
			if err != nil {
				t.Fatal(err)
			}
			if m.USI() != tt.usi {
				t.Errorf("ParseKIFMove(%q) = %s, want %s", tt.kif, m, tt.usi)
			}
			if got := p.KIFMove(m); got != tt.kif {
				t.Errorf("KIFMove(%s) = %q, want %q", m, got, tt.kif)
			}
		})
	}
}

// mustPosition sets up sfen and plays the USI moves.
func mustPosition(t testing.TB, sfen, moves string) *Position {
	t.Helper()
	p, err := ParseSFEN(sfen)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range strings.Fields(moves) {
		m, err := p.ParseUSIMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.DoMove(m)
	}
	return p
}

// TestKI2Relative checks the JSA relative words both ways: each text
// resolves to its move, and each move is written as that text.
func TestKI2Relative(t *testing.T) {
	tests := []struct {
		name, sfen, ki2, usi string
	}{
		// formats.md §3.3 worked example: golds on 6三, 5三, 4三 to 5二.
		{"gold left", "4k4/9/3GGG3/9/9/9/9/9/4K4 b - 1", "▲５二金左", "6c5b"},
		{"gold straight", "4k4/9/3GGG3/9/9/9/9/9/4K4 b - 1", "▲５二金直", "5c5b"},
		{"gold right", "4k4/9/3GGG3/9/9/9/9/9/4K4 b - 1", "▲５二金右", "4c5b"},
		{"gold sideways", "k8/3G5/5G3/9/9/9/9/9/4K4 b - 1", "▲５二金寄", "6b5b"},
		{"gold up", "k8/3G5/5G3/9/9/9/9/9/4K4 b - 1", "▲５二金上", "4c5b"},
		{"silver back", "k8/9/9/3S5/9/5S3/9/9/4K4 b - 1", "▲５五銀引", "6d5e"},
		{"silver up", "k8/9/9/3S5/9/5S3/9/9/4K4 b - 1", "▲５五銀上", "4f5e"},
		{"silver right", "k8/9/9/3S1S3/9/9/9/9/4K4 b - 1", "▲５五銀右", "4d5e"},
		{"silver left", "k8/9/9/3S1S3/9/9/9/9/4K4 b - 1", "▲５五銀左", "6d5e"},
		{"silver right back", "k8/9/9/3S1S3/9/5S3/9/9/4K4 b - 1", "▲５五銀右引", "4d5e"},
		{"silver left alone", "k8/9/9/3S1S3/9/5S3/9/9/4K4 b - 1", "▲５五銀左", "6d5e"},
		{"silver up alone", "k8/9/9/3S1S3/9/5S3/9/9/4K4 b - 1", "▲５五銀上", "4f5e"},
		{"silver into the zone", "k8/9/9/4S4/9/9/9/9/4K4 b - 1", "▲５三銀不成", "5d5c"},
		{"knights", "k8/9/9/9/9/9/3N1N3/9/4K4 b - 1", "▲５五桂右", "4g5e"},
		{"white gold right", "4k4/9/9/9/9/9/3ggg3/9/4K4 w - 1", "△５八金右", "6g5h"},
		{"white gold left", "4k4/9/9/9/9/9/3ggg3/9/4K4 w - 1", "△５八金左", "4g5h"},
		{"dragons", "k8/9/9/9/1+R5+R1/9/9/9/4K4 b - 1", "▲５五龍右", "2e5e"},
		{"horse back", "k8/9/9/9/9/3+B5/9/9/+B3K4 b - 1", "▲８八馬引", "6f8h"},
		{"horse up", "k8/9/9/9/9/3+B5/9/9/+B3K4 b - 1", "▲８八馬上", "9i8h"},
		{"drop needs 打", "k8/9/9/9/9/9/9/4G4/4K4 b G 1", "▲５七金打", "G*5g"},
		{"drop without 打", "k8/9/9/9/9/9/9/9/4K4 b G 1", "▲５五金", "G*5e"},
		{"promotion", "k8/9/9/4S4/9/9/9/9/4K4 b - 1", "▲５三銀成", "5d5c+"},
		{"no promotion", "k8/9/9/4S4/9/9/9/9/4K4 b - 1", "▲５三銀不成", "5d5c"},
		{"pinned gold needs no word", "k8/9/9/9/8b/9/4G4/5G3/4K4 b - 1", "▲４七金", "5g4g"},
		{"unpinned gold needs a word", "k8/9/9/9/9/9/4G4/5G3/4K4 b - 1", "▲４七金寄", "5g4g"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPosition(t, tt.sfen, "")
			m, err := p.ParseKI2Move(tt.ki2)
			if err != nil {
				t.Fatal(err)
			}
			if m.USI() != tt.usi {
				t.Errorf("ParseKI2Move(%q) = %s, want %s", tt.ki2, m, tt.usi)
			}
			if got, err := p.KI2Move(m); err != nil || got != tt.ki2 {
				t.Errorf("KI2Move(%s) = %q, %v; want %q", m, got, err, tt.ki2)
			}
		})
	}
}

// TestKI2Accepts checks relative words that readers accept but writers
// do not produce (行, 入, superfluous words).
func TestKI2Accepts(t *testing.T) {
	tests := []struct {
		name, sfen, ki2, usi string
	}{
		{"行 means 上", "k8/3G5/5G3/9/9/9/9/9/4K4 b - 1", "▲５二金行", "4c5b"},
		{"入 means 上", "k8/3G5/5G3/9/9/9/9/9/4K4 b - 1", "▲５二金入", "4c5b"},
		{"superfluous", "k8/9/9/4S4/9/9/9/9/4K4 b - 1", "▲５三銀直成", "5d5c+"},
		{"same without space", StartSFEN + " moves 7g7f 3c3d 8h2b+", "△同銀", "3a2b"},
		{"☖ mark", StartSFEN + " moves 7g7f", "☖３四歩", "3c3d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sfen, moves, _ := strings.Cut(tt.sfen, " moves ")
			p := mustPosition(t, sfen, moves)
			m, err := p.ParseKI2Move(tt.ki2)
			if err != nil || m.USI() != tt.usi {
				t.Errorf("ParseKI2Move(%q) = %s, %v; want %s", tt.ki2, m, err, tt.usi)
			}
		})
	}
}

// TestKI2Rejects checks that a token naming no single move is refused.
func TestKI2Rejects(t *testing.T) {
	tests := []struct {
		name, sfen, ki2, want string
	}{
		{"ambiguous", "4k4/9/3GGG3/9/9/9/9/9/4K4 b - 1", "▲５二金", "ambiguous"},
		{"no such piece", StartSFEN, "▲５五飛", "can reach"},
		{"wrong side", StartSFEN, "△７六歩", "side not to move"},
		{"same first move", StartSFEN, "▲同　歩", "no previous move"},
		{"bad word", StartSFEN, "▲７六歩左x", "unexpected"},
		{"nifu", "k8/9/9/9/9/9/4P4/9/4K4 b P 1", "▲５五歩", "二歩"},
		{"words on a drop", "k8/9/9/9/9/9/9/9/4K4 b G 1", "▲５五金上", "can reach ５五 with 上"},
		{"promotion on a drop", "k8/9/9/9/9/9/9/9/4K4 b S 1", "▲５三銀成", "can reach"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPosition(t, tt.sfen, "")
			m, err := p.ParseKI2Move(tt.ki2)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseKI2Move(%q) = %s, %v; want an error containing %q", tt.ki2, m, err, tt.want)
			}
		})
	}
}

// TestKI2InverseCorpus writes every legal move of many real positions as
// KI2 and KIF text and reads it back: each text must name exactly the
// move it was written for, and KI2 relative words must be needed.
func TestKI2InverseCorpus(t *testing.T) {
	_, recs := loadCorpus(t)
	step := 3 // every third position of every game
	if testing.Short() {
		step = 11
	}
	positions, moves, withWords := 0, 0, 0
	var buf [MaxMoves]Move
	for ri, r := range recs {
		if strings.Contains(r.File, "selfplay") && ri%5 != 0 {
			continue // plenty of computer positions elsewhere
		}
		p, err := r.StartPosition()
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; ; i++ {
			if i%step == 0 {
				positions++
				for _, m := range p.GenerateMoves(LegalAll, buf[:0]) {
					moves++
					checkTexts(t, p, m, &withWords)
				}
			}
			if i == len(r.Main.Moves) {
				break
			}
			p.DoMove(r.Main.Moves[i].Move)
		}
	}
	t.Logf("%d positions, %d legal moves, %d KI2 texts with relative words", positions, moves, withWords)
	if withWords == 0 {
		t.Error("no move needed a relative word: the test saw too little")
	}
}

func checkTexts(t *testing.T, p *Position, m Move, withWords *int) {
	text, err := p.KI2Move(m)
	if err != nil {
		t.Fatalf("%s: KI2Move(%s): %v", p.SFEN(), m, err)
	}
	got, err := p.ParseKI2Move(text)
	if err != nil || got != m {
		t.Fatalf("%s: KI2 %q of %s reads as %s, %v", p.SFEN(), text, m, got, err)
	}
	if mt, _ := parseKI2MoveText(text); mt.horiz != 0 || mt.vert != 0 {
		*withWords++
		mt.horiz, mt.vert = 0, 0
		if bare, _, reason := resolveKI2(p, &mt); reason == "" && bare.Move16() == m.Move16() {
			t.Fatalf("%s: KI2 %q of %s has a relative word it does not need", p.SFEN(), text, m)
		}
	}
	kif := p.KIFMove(m)
	if got, err := p.ParseKIFMove(kif); err != nil || got != m {
		t.Fatalf("%s: KIF %q of %s reads as %s, %v", p.SFEN(), kif, m, got, err)
	}
}
