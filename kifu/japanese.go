package kifu

import (
	"strings"
	"unicode/utf8"
)

// Japanese move text: the KIF form (７六歩(77), 同　銀(31), ５五角打,
// ２二角成(88), ３三銀不成(44)) and the KI2 form with its mark and the JSA
// relative words (▲７六歩, △同　銀, ▲５二金右, ▲５五角打).

// zenDigits are the full-width digits １..９ used for files.
var zenDigits = [10]string{"０", "１", "２", "３", "４", "５", "６", "７", "８", "９"}

// kanjiNumerals are 一..九 used for ranks (index 0 unused).
var kanjiNumerals = [10]string{"〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"}

// digitValues maps every digit style seen in files (full-width,
// half-width, kanji) to its value 1..9.
var digitValues = map[rune]int{
	'1': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9,
	'１': 1, '２': 2, '３': 3, '４': 4, '５': 5, '６': 6, '７': 7, '８': 8, '９': 9,
	'一': 1, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9,
}

// pieceNames maps every piece name of KIF/KI2 move text and board
// diagrams (formats.md §0.2) to its type. Two-character names are the
// promoted small pieces.
var pieceNames = map[string]PieceType{
	"歩": Pawn, "香": Lance, "桂": Knight, "銀": Silver, "角": Bishop, "飛": Rook, "金": Gold,
	"玉": King, "王": King,
	"と": ProPawn, "成香": ProLance, "杏": ProLance, "成桂": ProKnight, "圭": ProKnight,
	"成銀": ProSilver, "全": ProSilver, "馬": Horse, "龍": Dragon, "竜": Dragon,
}

// kifPieceNames are the names written in move text, by type.
var kifPieceNames = [PieceTypeNB]string{"", "歩", "香", "桂", "銀", "角", "飛", "金", "玉",
	"と", "成香", "成桂", "成銀", "馬", "龍"}

// bodPieceNames are the one-character names of board diagrams, by type.
var bodPieceNames = [PieceTypeNB]string{"", "歩", "香", "桂", "銀", "角", "飛", "金", "玉",
	"と", "杏", "圭", "全", "馬", "龍"}

// moveMarks maps the side marks of KI2 (and tolerated in KIF) to colors.
var moveMarks = map[rune]Color{'▲': Black, '☗': Black, '▼': Black, '△': White, '☖': White, '▽': White}

// moveText is a parsed Japanese move, not yet resolved on a board.
type moveText struct {
	mark      bool  // a side mark was given
	color     Color // the mark's color
	same      bool  // 同: the destination of the previous move
	to        Square
	piece     PieceType // the piece before the move
	horiz     rune      // 右 左 直 (KI2), 0 if none
	vert      rune      // 上 引 寄 行 入 (KI2), 0 if none
	promote   bool      // 成
	noPromote bool      // 不成
	drop      bool      // 打
	from      Square    // KIF origin, NoSquare if none
}

// parseMoveHead reads an optional mark, the destination and the piece
// name at the start of s. It returns the rest of s, or a reason.
func parseMoveHead(s string) (mt moveText, rest string, reason string) {
	mt.from = NoSquare
	mt.to = NoSquare
	r, n := utf8.DecodeRuneInString(s)
	if c, ok := moveMarks[r]; ok {
		mt.mark, mt.color = true, c
		s = s[n:]
	}
	if t, ok := strings.CutPrefix(s, "同"); ok {
		mt.same = true
		s = strings.TrimLeft(t, " 　")
	} else {
		f, n1 := utf8.DecodeRuneInString(s)
		rk, n2 := utf8.DecodeRuneInString(s[n1:])
		fv, ok1 := digitValues[f]
		rv, ok2 := digitValues[rk]
		if !ok1 || !ok2 {
			return mt, s, "want a destination like ７六 or 同"
		}
		mt.to = NewSquare(fv, rv)
		s = s[n1+n2:]
		if t, ok := strings.CutPrefix(s, "同"); ok { // "７六同歩": destination and 同 both given
			s = strings.TrimLeft(t, " 　")
		}
	}
	for _, name := range [...]string{"成銀", "成桂", "成香"} {
		if t, ok := strings.CutPrefix(s, name); ok {
			mt.piece = pieceNames[name]
			return mt, t, ""
		}
	}
	p, n := utf8.DecodeRuneInString(s)
	pt, ok := pieceNames[string(p)]
	if !ok {
		return mt, s, "want a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)"
	}
	mt.piece = pt
	return mt, s[n:], ""
}

// parseSuffix reads 成, 不成 (also 生) or 打 at the start of s.
func (mt *moveText) parseSuffix(s string) string {
	switch {
	case strings.HasPrefix(s, "不成"):
		mt.noPromote = true
		return s[len("不成"):]
	case strings.HasPrefix(s, "生"):
		mt.noPromote = true
		return s[len("生"):]
	case strings.HasPrefix(s, "成"):
		mt.promote = true
		return s[len("成"):]
	case strings.HasPrefix(s, "打"):
		mt.drop = true
		return s[len("打"):]
	}
	return s
}

// parseKIFMoveText reads the move part of a KIF move line: destination,
// piece, 成/不成/打 and the origin "(77)". It returns the rest of the
// line (time field, "+" and any text), or a reason.
func parseKIFMoveText(s string) (mt moveText, rest string, reason string) {
	mt, s, reason = parseMoveHead(s)
	if reason != "" {
		return mt, s, reason
	}
	s = mt.parseSuffix(s)
	if t, ok := strings.CutPrefix(s, "("); ok {
		// "(77)" is the origin; "( 0:16/00:00:16)" is a time field.
		if inner, after, closed := strings.Cut(t, ")"); closed && !strings.Contains(inner, ":") {
			rs := []rune(strings.TrimSpace(inner))
			if len(rs) != 2 || digitValues[rs[0]] == 0 || digitValues[rs[1]] == 0 {
				return mt, s, "want an origin like (77), found " + quoteRunes("("+inner+")")
			}
			mt.from = NewSquare(digitValues[rs[0]], digitValues[rs[1]])
			s = after
		}
	}
	if mt.drop && mt.from != NoSquare {
		return mt, s, "a drop (打) has no origin"
	}
	return mt, s, ""
}

// parseKI2MoveText reads one KI2 move token (mark included): destination,
// piece, relative words and 成/不成/打.
func parseKI2MoveText(s string) (mt moveText, reason string) {
	mt, s, reason = parseMoveHead(s)
	if reason != "" {
		return mt, reason
	}
	if r, n := utf8.DecodeRuneInString(s); r == '右' || r == '左' || r == '直' {
		mt.horiz = r
		s = s[n:]
	}
	if r, n := utf8.DecodeRuneInString(s); r == '上' || r == '引' || r == '寄' || r == '行' || r == '入' {
		mt.vert = r
		s = s[n:]
	}
	s = mt.parseSuffix(s)
	if s = strings.TrimRight(s, " 　"); s != "" {
		return mt, "unexpected " + quoteRunes(s) + " after the move (want 右 左 直 上 引 寄 成 不成 打)"
	}
	return mt, ""
}

// quoteRunes quotes s for messages, shortening long text.
func quoteRunes(s string) string {
	if utf8.RuneCountInString(s) > 24 {
		r := []rune(s)
		s = string(r[:24]) + "…"
	}
	return "\"" + s + "\""
}

// destination resolves 同 against the previous move.
func (mt *moveText) destination(p *Position) (Square, string) {
	if !mt.same {
		return mt.to, ""
	}
	last := p.LastMove()
	if last == MoveNone || last == MoveNull {
		if mt.to != NoSquare {
			return mt.to, ""
		}
		return NoSquare, "同 but there is no previous move"
	}
	if mt.to != NoSquare && mt.to != last.To() {
		return NoSquare, "同 names another square than the previous move's"
	}
	return last.To(), ""
}

// kifMove turns a parsed KIF move into a Move as written (not checked):
// a board move from its origin, or a drop (also when neither origin nor
// 打 is given, formats.md §2.5).
func (mt *moveText) kifMove(p *Position) (Move, string) {
	to, reason := mt.destination(p)
	if reason != "" {
		return MoveNone, reason
	}
	us := p.side
	if mt.from == NoSquare {
		if mt.promote || mt.noPromote {
			return MoveNone, "want an origin like (77) after 成/不成"
		}
		return NewDrop(us, mt.piece, to), ""
	}
	if mt.from == to {
		return MoveNone, "origin and destination are the same square"
	}
	return NewBoardMove(mt.from, to, NewPiece(us, mt.piece), p.board[to], mt.promote), ""
}

// forward returns how far a move from from to to goes toward the
// opponent, for color c.
func forward(c Color, from, to Square) int {
	if c == Black {
		return from.Rank() - to.Rank()
	}
	return to.Rank() - from.Rank()
}

// filterOrigins keeps the origins that match the KI2 relative words
// (formats.md §3.3 steps 4-6).
func filterOrigins(c Color, to Square, origins []Square, horiz, vert rune) []Square {
	out := origins[:0:0]
	for _, s := range origins {
		dy := forward(c, s, to)
		switch vert {
		case '上', '行', '入':
			if dy <= 0 {
				continue
			}
		case '引':
			if dy >= 0 {
				continue
			}
		case '寄':
			if dy != 0 {
				continue
			}
		}
		if horiz == '直' && (s.File() != to.File() || dy <= 0) {
			continue
		}
		out = append(out, s)
	}
	if horiz == '右' || horiz == '左' {
		// keep the origins furthest to the mover's right (left): for
		// Black the right is the smaller file number.
		best := -1
		for _, s := range out {
			f := s.File()
			if (c == Black) != (horiz == '右') {
				f = 10 - f
			}
			if best < 0 || f < best {
				best = f
			}
		}
		kept := out[:0]
		for _, s := range out {
			f := s.File()
			if (c == Black) != (horiz == '右') {
				f = 10 - f
			}
			if f == best {
				kept = append(kept, s)
			}
		}
		out = kept
	}
	return out
}

// boardOrigins returns the squares of the side to move's pieces of type
// pt that can reach to; with legal set, only those with a legal move
// there (promoting or not).
func (p *Position) boardOrigins(pt PieceType, to Square, legal bool) []Square {
	us := p.side
	pc := NewPiece(us, pt)
	var out []Square
	for b := p.PiecesOf(us, pt); b.Any(); {
		s := b.Pop()
		if !Attacks(pc, s, p.occupied).Has(to) {
			continue
		}
		if legal {
			m := NewBoardMove(s, to, pc, p.board[to], false)
			if p.legality(m) != LegalMove &&
				(!pt.CanPromote() || p.legality(m|movePromote) != LegalMove) {
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// resolveKI2 finds the move a KI2 token means (formats.md §3.3). If the
// token names no single move, reason says why; otherwise kind is the rule
// the move breaks (LegalMove if none).
func resolveKI2(p *Position, mt *moveText) (m Move, kind IllegalMoveKind, reason string) {
	to, reason := mt.destination(p)
	if reason != "" {
		return MoveNone, LegalMove, reason
	}
	us := p.side
	pt := mt.piece
	if mt.drop {
		if mt.horiz != 0 || mt.vert != 0 || !pt.IsHandType() {
			return MoveNone, LegalMove, "打 with a piece or words that cannot be dropped"
		}
		m = NewDrop(us, pt, to)
		return m, p.legality(m), ""
	}
	origins := filterOrigins(us, to, p.boardOrigins(pt, to, true), mt.horiz, mt.vert)
	if len(origins) == 0 && mt.horiz == 0 && mt.vert == 0 && !mt.promote && !mt.noPromote &&
		pt.IsHandType() && p.hands[us].Has(pt) && p.board[to] == NoPiece &&
		len(p.boardOrigins(pt, to, true)) == 0 {
		m = NewDrop(us, pt, to) // implicit drop
		return m, p.legality(m), ""
	}
	if len(origins) == 0 {
		// No legal move fits: look for a piece that could get there,
		// to name the rule it breaks.
		origins = filterOrigins(us, to, p.boardOrigins(pt, to, false), mt.horiz, mt.vert)
	}
	switch len(origins) {
	case 0:
		return MoveNone, LegalMove, "no " + kifPieceNames[pt] + " of the side to move can reach " +
			zenDigits[to.File()] + kanjiNumerals[to.Rank()] + wordsNote(mt)
	case 1:
		m = NewBoardMove(origins[0], to, p.board[origins[0]], p.board[to], mt.promote)
		return m, p.legality(m), ""
	}
	var b strings.Builder
	b.WriteString("ambiguous: the ")
	b.WriteString(kifPieceNames[pt])
	b.WriteString(" can come from ")
	for i, s := range origins {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(zenDigits[s.File()] + kanjiNumerals[s.Rank()])
	}
	b.WriteString("; want 右/左/直/上/引/寄 to tell them apart")
	return MoveNone, LegalMove, b.String()
}

func wordsNote(mt *moveText) string {
	if mt.horiz == 0 && mt.vert == 0 {
		return ""
	}
	s := " with "
	if mt.horiz != 0 {
		s += string(mt.horiz)
	}
	if mt.vert != 0 {
		s += string(mt.vert)
	}
	return s
}

// ParseKIFMove reads a move in KIF form ("７六歩(77)", "同　銀(31)",
// "５五角打") in position p and checks that it is legal.
func (p *Position) ParseKIFMove(s string) (Move, error) {
	mt, rest, reason := parseKIFMoveText(strings.TrimSpace(s))
	if reason == "" && strings.TrimSpace(rest) != "" {
		reason = "unexpected " + quoteRunes(rest) + " after the move"
	}
	if reason != "" {
		return MoveNone, &MoveSyntaxError{Text: s, Reason: reason}
	}
	m, reason := mt.kifMove(p)
	if reason != "" {
		return MoveNone, &MoveSyntaxError{Text: s, Reason: reason}
	}
	if kind := p.legality(m); kind != LegalMove {
		return MoveNone, &IllegalMoveError{Move: m, Kind: kind, SFEN: p.SFEN()}
	}
	return m, nil
}

// ParseKI2Move reads a move in KI2 form ("▲７六歩", "△同　銀", "▲５二金右")
// in position p: the relative words are resolved against the legal moves
// (formats.md §3.3). The move must be legal and named unambiguously.
func (p *Position) ParseKI2Move(s string) (Move, error) {
	mt, reason := parseKI2MoveText(strings.TrimSpace(s))
	if reason == "" && mt.mark && mt.color != p.side {
		reason = "the mark names the side not to move"
	}
	if reason != "" {
		return MoveNone, &MoveSyntaxError{Text: s, Reason: reason}
	}
	m, kind, reason := resolveKI2(p, &mt)
	if reason != "" {
		return MoveNone, &MoveSyntaxError{Text: s, Reason: reason}
	}
	if kind != LegalMove {
		return MoveNone, &IllegalMoveError{Move: m, Kind: kind, SFEN: p.SFEN()}
	}
	return m, nil
}

// squareText returns a destination in KIF/KI2 form, 同 when it is the
// destination of the previous move.
func (p *Position) squareText(to Square, pieceName string) string {
	if last := p.LastMove(); last != MoveNone && last != MoveNull && last.To() == to {
		if utf8.RuneCountInString(pieceName) == 1 {
			return "同　"
		}
		return "同"
	}
	return zenDigits[to.File()] + kanjiNumerals[to.Rank()]
}

// promoteSuffix returns 成 for a promotion, 不成 for a move that could
// promote and does not, and "" otherwise.
func (p *Position) promoteSuffix(m Move) string {
	if m.IsDrop() {
		return ""
	}
	if m.IsPromotion() {
		return "成"
	}
	pt := m.Piece().Type()
	if pt == NoPieceType {
		pt = p.board[m.From()].Type()
	}
	if pt.CanPromote() && (promoZone[p.side].Has(m.From()) || promoZone[p.side].Has(m.To())) {
		return "不成"
	}
	return ""
}

// movePieceType returns the type of the piece m moves (before promotion).
func (p *Position) movePieceType(m Move) PieceType {
	if m.IsDrop() {
		return m.DroppedType()
	}
	if pt := m.Piece().Type(); pt != NoPieceType {
		return pt
	}
	return p.board[m.From()].Type()
}

// KIFMove returns m in KIF form: "７六歩(77)", "同　銀(31)", "５五角打",
// "２二角成(88)", "３三銀不成(44)". m need not be legal.
func (p *Position) KIFMove(m Move) string {
	pt := p.movePieceType(m)
	if pt >= PieceTypeNB {
		pt = NoPieceType
	}
	name := kifPieceNames[pt]
	s := p.squareText(m.To(), name) + name
	if m.IsDrop() {
		return s + "打"
	}
	from := m.From()
	return s + p.promoteSuffix(m) + "(" + string(rune('0'+from.File())) + string(rune('0'+from.Rank())) + ")"
}

// KI2Move returns m in KI2 form with its mark and the fewest JSA relative
// words that name it: "▲７六歩", "△同　銀", "▲５二金右", "▲５五角打"
// (打 only when a board piece could also move there). Reading the text
// back with ParseKI2Move gives m again; an error means no text does.
func (p *Position) KI2Move(m Move) (string, error) {
	pt := p.movePieceType(m)
	if pt == NoPieceType || pt >= PieceTypeNB {
		return "", &MoveSyntaxError{Text: m.USI(), Reason: "no piece to name"}
	}
	mark := "▲"
	if p.side == White {
		mark = "△"
	}
	name := kifPieceNames[pt]
	head := mark + p.squareText(m.To(), name) + name
	mt := moveText{to: m.To(), piece: pt, from: NoSquare}
	want := m.Move16()
	if m.IsDrop() {
		if got, _, reason := resolveKI2(p, &mt); reason == "" && got.Move16() == want {
			return head, nil
		}
		return head + "打", nil
	}
	suffix := p.promoteSuffix(m)
	mt.promote = m.IsPromotion()
	mt.noPromote = suffix == "不成"
	var mv rune
	switch dy := forward(p.side, m.From(), m.To()); {
	case dy > 0:
		mv = '上'
	case dy < 0:
		mv = '引'
	default:
		mv = '寄'
	}
	for _, w := range [...][2]rune{{0, 0}, {0, mv}, {'直', 0}, {'右', 0}, {'左', 0}, {'右', mv}, {'左', mv}} {
		mt.horiz, mt.vert = w[0], w[1]
		got, _, reason := resolveKI2(p, &mt)
		if reason != "" || got.Move16() != want {
			continue
		}
		words := ""
		if w[0] != 0 {
			words += string(w[0])
		}
		if w[1] != 0 {
			words += string(w[1])
		}
		return head + words + suffix, nil
	}
	return "", &MoveSyntaxError{Text: m.USI(), Reason: "no KI2 text names this move"}
}
