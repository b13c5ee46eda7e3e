package kifu

import (
	"strconv"
	"strings"
)

// setup is a start position being read from a board diagram (BOD) or CSA
// P lines, before it is checked by ParseSFEN.
type setup struct {
	board [SquareNB]Piece
	hands [ColorNB]Hand
	side  Color
}

// sfen returns the set-up position in SFEN.
func (s *setup) sfen() string {
	var b strings.Builder
	writeBoardSFEN(&b, s.board[:])
	b.WriteString(" " + s.side.String() + " " + handsSFEN(s.hands) + " 1")
	return b.String()
}

// position checks the set-up position and returns it.
func (s *setup) position() (*Position, error) { return ParseSFEN(s.sfen()) }

// bodPieces maps the one-character piece names of board diagrams (and
// hands) to piece types.
var bodPieces = map[rune]PieceType{
	'歩': Pawn, '香': Lance, '桂': Knight, '銀': Silver, '角': Bishop, '飛': Rook, '金': Gold,
	'玉': King, '王': King, 'と': ProPawn, '杏': ProLance, '圭': ProKnight, '全': ProSilver,
	'馬': Horse, '龍': Dragon, '竜': Dragon,
}

// parseBODRow reads a board row "| ・v桂 ・ ・ ・ 銀 ・v桂v香|一" into rank
// r of s (formats.md §2.4).
func (s *setup) parseBODRow(line string, r int) string {
	rs := []rune(strings.TrimPrefix(line, "|"))
	if len(rs) < 18 {
		return "want nine 2-character cells between | and |"
	}
	for f := 9; f >= 1; f-- {
		mark, name := rs[0], rs[1]
		rs = rs[2:]
		if name == '・' {
			continue
		}
		pt, ok := bodPieces[name]
		if !ok {
			return "unknown piece " + quoteRunes(string(name)) + " in the board diagram"
		}
		c := Black
		switch mark {
		case 'v', 'V':
			c = White
		case ' ', '+', '^':
		default:
			return "unknown owner mark " + quoteRunes(string(mark)) + " (want a space or v)"
		}
		s.board[NewSquare(f, r)] = NewPiece(c, pt)
	}
	if len(rs) > 0 && rs[0] != '|' {
		return "want | after the ninth cell"
	}
	return ""
}

// kanjiCount reads a count written in kanji (二, 十, 十八) or digits.
func kanjiCount(s string) (int, bool) {
	if s == "" {
		return 1, true
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n, n > 0
	}
	n, digit := 0, 0
	for _, r := range s {
		switch {
		case r == '十':
			if digit == 0 {
				digit = 1
			}
			n += digit * 10
			digit = 0
		case digitValues[r] > 0:
			digit = digitValues[r]
		default:
			return 0, false
		}
	}
	return n + digit, n+digit > 0
}

// parseBODHand reads the pieces in hand after "先手の持駒：" ("金　銀二
// 歩三", "なし", or without separators "飛角金二").
func parseBODHand(s string) (Hand, string) {
	var h Hand
	s = strings.TrimSpace(strings.Trim(s, " 　"))
	if s == "なし" || s == "" {
		return h, ""
	}
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		if r == ' ' || r == '　' || r == '、' || r == ',' {
			i++
			continue
		}
		pt, ok := bodPieces[r]
		if !ok || !pt.IsHandType() {
			return h, "want pieces in hand like 金　銀二　歩三, found " + quoteRunes(string(rs[i:]))
		}
		j := i + 1
		for j < len(rs) && (rs[j] == '十' || digitValues[rs[j]] > 0) {
			j++
		}
		n, ok := kanjiCount(string(rs[i+1 : j]))
		if !ok || h.Count(pt)+n > MaxHand[pt] {
			return h, "bad count " + quoteRunes(string(rs[i:j])) + " of pieces in hand"
		}
		h = h.Set(pt, h.Count(pt)+n)
		i = j
	}
	return h, ""
}

// kanjiNumber writes n (1..18) in kanji as hand counts are written.
func kanjiNumber(n int) string {
	if n >= 10 {
		s := "十"
		if n > 10 {
			s += kanjiNumerals[n-10]
		}
		return s
	}
	return kanjiNumerals[n]
}

// formatBODHand writes a hand as "金　銀二　歩三" ("なし" if empty).
func formatBODHand(h Hand) string {
	var parts []string
	for _, pt := range HandTypes {
		n := h.Count(pt)
		if n == 0 {
			continue
		}
		s := bodPieceNames[pt]
		if n > 1 {
			s += kanjiNumber(n)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "なし"
	}
	return strings.Join(parts, "　")
}

// writeBOD writes a board diagram with hands and side to move.
func writeBOD(b *strings.Builder, p *Position) {
	b.WriteString("後手の持駒：" + formatBODHand(p.hands[White]) + "\n")
	b.WriteString("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n")
	for r := 1; r <= 9; r++ {
		b.WriteByte('|')
		for f := 9; f >= 1; f-- {
			pc := p.board[NewSquare(f, r)]
			switch {
			case pc == NoPiece:
				b.WriteString(" ・")
			case pc.Color() == White:
				b.WriteString("v" + bodPieceNames[pc.Type()])
			default:
				b.WriteString(" " + bodPieceNames[pc.Type()])
			}
		}
		b.WriteString("|" + kanjiNumerals[r] + "\n")
	}
	b.WriteString("+---------------------------+\n")
	b.WriteString("先手の持駒：" + formatBODHand(p.hands[Black]) + "\n")
	if p.side == White {
		b.WriteString("後手番\n")
	} else {
		b.WriteString("先手番\n")
	}
}
