package kifu

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// csaPieces maps CSA piece codes to types.
var csaPieces = map[string]PieceType{
	"FU": Pawn, "KY": Lance, "KE": Knight, "GI": Silver, "KA": Bishop, "HI": Rook, "KI": Gold, "OU": King,
	"TO": ProPawn, "NY": ProLance, "NK": ProKnight, "NG": ProSilver, "UM": Horse, "RY": Dragon,
}

// csaCodes are the CSA piece codes by type.
var csaCodes = [PieceTypeNB]string{"", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY"}

// csaKeys maps the CSA game-information keys that KIF also knows to the
// KIF header names used in Record.Header.
var csaKeys = map[string]string{
	"N+": KeyBlack, "N-": KeyWhite, "$EVENT": KeyEvent, "$SITE": KeySite,
	"$START_TIME": KeyStartTime, "$END_TIME": KeyEndTime, "$OPENING": KeyOpening,
}

// kifToCSAKeys maps KIF header names back to CSA game-information keys.
var kifToCSAKeys = map[string]string{
	KeyEvent: "$EVENT", KeySite: "$SITE", KeyStartTime: "$START_TIME", KeyEndTime: "$END_TIME", KeyOpening: "$OPENING",
}

// CSAVersion is the version line a CSA writer produces.
type CSAVersion string

// CSA versions that can be written.
const (
	CSAV22 CSAVersion = "2.2" // integer seconds, no encoding line
	CSAV30 CSAVersion = "3.0" // "'CSA encoding=UTF-8" line, millisecond times
)

// ParseCSA reads the records of a CSA file (formats.md §4): versions V1
// (no version line), V2, V2.1, V2.2 and V3.0, several statements per line
// separated by ",", comments ("'", and "'*" comments kept with the move),
// T times, every % special move, and several records separated by "/"
// lines. Every move is resolved and checked as it is read.
//
// A record whose main line stops at an illegal move (not followed by a
// foul %-terminal, formats.md §6 rule 11) is returned with its legal
// prefix and its ReplayErr set; reading goes on with the next record, and
// the first such error is returned with all the records. A syntax error
// stops reading: the records before it are returned with a *ParseError.
func ParseCSA(r io.Reader) ([]*Record, error) {
	text, err := readText(r)
	if err != nil {
		return nil, err
	}
	return parseCSA("", text)
}

// csaReader reads one CSA record at a time.
type csaReader struct {
	*builder
	name    string
	setup   setup
	posSeen bool // PI given
	placed  bool // P+ or P- given
	rows    int  // P1..P9 rows read
	moving  bool // the side-to-move line was read
	skip    bool // a replay error: skip to the next record
	line    int
	// emptyName is the line of the last N+ or N- with no name.
	emptyName int
}

func parseCSA(name, text string) ([]*Record, error) {
	var recs []*Record
	var firstErr error
	c := &csaReader{name: name}
	c.reset(0)
	flush := func() error {
		if c.skip {
			return nil
		}
		if !c.moving {
			if c.rows == 0 && !c.posSeen && !c.placed && len(c.rec.Header) == 0 && c.rec.StartComments == nil {
				return nil // nothing but comments: no record
			}
			if err := c.fixStart(c.line, ""); err != nil {
				return err
			}
		}
		if err := c.finish(); err != nil && firstErr == nil {
			firstErr = err
		}
		return nil
	}
	for i, raw := range splitLines(text) {
		n := i + 1
		c.line = n
		s := strings.TrimRight(raw, " \t　")
		if strings.TrimSpace(s) == "/" {
			if err := flush(); err != nil {
				return recs, err
			}
			if c.moving || c.skip {
				recs = append(recs, c.rec)
			}
			c.reset(len(recs))
			continue
		}
		if c.skip {
			continue
		}
		if err := c.statements(s, n); err != nil {
			if re, ok := err.(*ReplayError); ok {
				if firstErr == nil {
					firstErr = re
				}
				c.skip = true
				continue
			}
			return recs, err
		}
	}
	if err := flush(); err != nil {
		return recs, err
	}
	if c.moving || c.skip {
		recs = append(recs, c.rec)
	}
	return recs, firstErr
}

func (c *csaReader) reset(index int) {
	rec := &Record{File: c.name, Index: index}
	*c = csaReader{builder: newBuilder(rec, FormatCSA), name: c.name}
}

// statements reads one line: comments, or statements separated by ",".
func (c *csaReader) statements(s string, n int) error {
	t := strings.TrimLeft(s, " \t")
	if t == "" {
		return nil
	}
	if t[0] == '#' || strings.HasPrefix(t, "**") {
		// Server protocol lines (#RESIGN, #TIME_UP) and engine output
		// that lost its quote are not CSA statements: skip them.
		return nil
	}
	if t[0] == '\'' || t[0] == 'N' || t[0] == '$' {
		return c.statement(t, n)
	}
	for t != "" {
		st := t
		if t[0] == '\'' {
			t = ""
		} else if i := strings.IndexByte(t, ','); i >= 0 {
			st, t = t[:i], t[i+1:]
		} else {
			t = ""
		}
		st = strings.TrimSpace(st)
		t = strings.TrimLeft(t, " \t")
		if st == "" {
			continue
		}
		if err := c.statement(st, n); err != nil {
			return err
		}
	}
	return nil
}

// statement reads one CSA statement.
func (c *csaReader) statement(s string, n int) error {
	switch s[0] {
	case '\'':
		if rest, ok := strings.CutPrefix(s, "'*"); ok {
			if !c.moving {
				c.rec.StartComments = append(c.rec.StartComments, rest)
			} else {
				c.comment(rest)
				if v, ok, bad := parseScoreComment(rest); bad != "" {
					c.warn(n, s, bad)
				} else if ok {
					c.setScore(v)
				}
			}
		}
		return nil
	case 'V':
		if c.moving {
			return c.syntax(n, s, "a version line after the moves began")
		}
		return nil
	case 'N':
		if len(s) < 2 || (s[1] != '+' && s[1] != '-') {
			return c.syntax(n, s, "want N+name or N-name")
		}
		c.rec.Header = append(c.rec.Header, HeaderField{csaKeys[s[:2]], strings.TrimPrefix(s[2:], ":")})
		if len(s) == 2 {
			c.emptyName = n
		}
		return nil
	case '$':
		key, value, ok := strings.Cut(s, ":")
		if !ok {
			return c.syntax(n, s, "want $KEY:value")
		}
		if k, ok := csaKeys[key]; ok {
			key = k
		}
		c.rec.Header = append(c.rec.Header, HeaderField{key, value})
		return nil
	case 'P':
		if c.moving {
			return c.syntax(n, s, "a position line after the side to move (+ or -)")
		}
		return c.positionLine(s, n)
	case '+', '-':
		if len(s) == 1 {
			if c.moving {
				return c.syntax(n, s, "a second side-to-move line")
			}
			c.setup.side = Black
			if s == "-" {
				c.setup.side = White
			}
			return c.fixStart(n, s)
		}
		if !c.moving {
			return c.syntax(n, s, "a move before the side to move (+ or -) was given")
		}
		return c.move(s, n)
	case 'T':
		if !c.moving {
			return c.syntax(n, s, "a time before the moves")
		}
		d, ok := parseCSATime(s[1:])
		if !ok {
			// One bad time does not cost the game its moves.
			c.warn(n, s, "a time that is not like T12 or T12.345 (seconds); ignored (the move is kept without its time)")
			return nil
		}
		c.setTime(MoveTime{Spent: d, HasSpent: true})
		return nil
	case '%':
		if !c.moving {
			return c.syntax(n, s, "a special move before the side to move (+ or -) was given")
		}
		if w, ok := csaEndWords[s]; ok {
			return c.terminal(w.ending(s, c.pos.side), w.black || w.white, s, n)
		}
		return c.terminal(unknownEnding(s), false, s, n)
	}
	if c.emptyName > 0 && c.emptyName == n-1 {
		return c.syntax(n, s, "unknown statement after an empty N+ or N- on the line before (a player name goes on the N+/N- line, as N+name)")
	}
	return c.syntax(n, s, "unknown statement; want V, N+, N-, $KEY:, P, + or -, a move like +7776FU, T, % or '")
}

// fixStart checks the set-up position at the side-to-move line.
func (c *csaReader) fixStart(n int, s string) error {
	if !c.posSeen && c.rows == 0 && !c.placed {
		return c.syntax(n, s, "no start position before the side to move (want PI, P1..P9 or P+/P- pieces)")
	}
	if c.rows != 0 && c.rows != 9 {
		return c.syntax(n, s, fmt.Sprintf("the board has %d rows P1..P9, want 9", c.rows))
	}
	p, err := c.setup.position()
	if err != nil {
		return &ParseError{Format: FormatCSA, File: c.name, Line: n, Text: s, Err: err}
	}
	c.setStart(p)
	c.moving = true
	return nil
}

// positionLine reads PI, P1..P9, P+ and P- (formats.md §4.4).
func (c *csaReader) positionLine(s string, n int) error {
	if len(s) < 2 {
		return c.syntax(n, s, "want PI, P1..P9, P+ or P-")
	}
	switch k := s[1]; {
	case k == 'I':
		if c.posSeen || c.rows > 0 || c.placed {
			return c.syntax(n, s, "a second start position")
		}
		c.posSeen = true
		p := NewStartPosition()
		copy(c.setup.board[:], p.board[:SquareNB])
		for rest := s[2:]; rest != ""; rest = rest[min(4, len(rest)):] {
			sq, pt, ok := csaSquarePiece(rest)
			if !ok || sq == NoSquare || c.setup.board[sq].Type() != pt {
				return c.syntax(n, s, "want removed pieces like PI82HI22KA")
			}
			c.setup.board[sq] = NoPiece
		}
	case k >= '1' && k <= '9':
		r := int(k - '0')
		if c.posSeen || c.placed || r != c.rows+1 {
			return c.syntax(n, s, fmt.Sprintf("want row P%d", c.rows+1))
		}
		c.rows++
		rest := s[2:]
		for f := 9; f >= 1; f-- {
			rest = strings.TrimLeft(rest, " ")
			switch {
			case rest == "" || rest[0] == '*':
				// empty cell (a cut trailing " * " counts too)
				if rest != "" {
					rest = rest[1:]
				}
			case len(rest) >= 3 && (rest[0] == '+' || rest[0] == '-'):
				pt, ok := csaPieces[rest[1:3]]
				if !ok {
					return c.syntax(n, s, "unknown piece "+quoteRunes(rest[:3]))
				}
				col := Black
				if rest[0] == '-' {
					col = White
				}
				c.setup.board[NewSquare(f, r)] = NewPiece(col, pt)
				rest = rest[3:]
			default:
				return c.syntax(n, s, "want nine cells like -KY or  * ")
			}
		}
		if strings.Trim(rest, " .") != "" { // a "." for a cut trailing blank is seen
			return c.syntax(n, s, "more than nine cells")
		}
	case k == '+' || k == '-':
		c.placed = true
		col := Black
		if k == '-' {
			col = White
		}
		for rest := s[2:]; rest != ""; rest = rest[min(4, len(rest)):] {
			if strings.HasPrefix(rest, "00AL") {
				c.giveRest(col)
				continue
			}
			sq, pt, ok := csaSquarePiece(rest)
			if !ok {
				return c.syntax(n, s, "want pieces like 00FU (hand) or 55KA (board)")
			}
			if sq == NoSquare {
				if !pt.IsHandType() || c.setup.hands[col].Count(pt) >= MaxHand[pt] {
					return c.syntax(n, s, "a piece that cannot be in hand: "+csaCodes[pt])
				}
				c.setup.hands[col] = c.setup.hands[col].Add(pt)
			} else {
				c.setup.board[sq] = NewPiece(col, pt)
			}
		}
	default:
		return c.syntax(n, s, "want PI, P1..P9, P+ or P-")
	}
	return nil
}

// giveRest gives col every piece not yet on the board or in a hand, kings
// excluded (P+00AL / P-00AL).
func (c *csaReader) giveRest(col Color) {
	var used [PieceTypeNB]int
	for _, pc := range c.setup.board {
		if pc != NoPiece {
			used[pc.Type().Unpromote()]++
		}
	}
	for pt := Pawn; pt <= Gold; pt++ {
		used[pt] += c.setup.hands[Black].Count(pt) + c.setup.hands[White].Count(pt)
		if left := MaxHand[pt] - used[pt]; left > 0 {
			c.setup.hands[col] = c.setup.hands[col].Set(pt, c.setup.hands[col].Count(pt)+left)
		}
	}
}

// csaSquarePiece reads "xyPP": a square (NoSquare for 00) and a piece.
func csaSquarePiece(s string) (Square, PieceType, bool) {
	if len(s) < 4 {
		return NoSquare, 0, false
	}
	pt, ok := csaPieces[s[2:4]]
	if !ok {
		return NoSquare, 0, false
	}
	if s[0] == '0' && s[1] == '0' {
		return NoSquare, pt, true
	}
	if s[0] < '1' || s[0] > '9' || s[1] < '1' || s[1] > '9' {
		return NoSquare, 0, false
	}
	return NewSquare(int(s[0]-'0'), int(s[1]-'0')), pt, true
}

// move reads a move statement such as +7776FU or -0055KA.
func (c *csaReader) move(s string, n int) error {
	if c.pending != nil {
		return c.failPending()
	}
	if c.afterEnd(n) {
		return nil
	}
	if c.ended {
		return c.syntax(n, s, "a move after the end of the game ("+c.cur().br.End.Word+")")
	}
	if len(s) != 7 {
		return &ParseError{Format: FormatCSA, File: c.name, Line: n, Text: s,
			Err: &MoveSyntaxError{Text: s, Reason: "want a move like +7776FU (sign, origin, destination, piece)"}}
	}
	col := Black
	if s[0] == '-' {
		col = White
	}
	if col != c.pos.side {
		return c.syntax(n, s, "a move by the side not to move")
	}
	from, _, okFrom := csaSquarePiece(s[1:3] + "FU")
	to, pt, okTo := csaSquarePiece(s[3:7])
	if !okFrom || !okTo || to == NoSquare {
		return &ParseError{Format: FormatCSA, File: c.name, Line: n, Text: s,
			Err: &MoveSyntaxError{Text: s, Reason: "want squares 11..99 (00 as origin of a drop) and a piece code like FU"}}
	}
	var m Move
	switch pc := c.pos.board[from]; {
	case from == NoSquare:
		m = NewDrop(col, pt, to)
	case pc != NoPiece && pc.Type() == pt:
		m = NewBoardMove(from, to, pc, c.pos.board[to], false)
	case pc != NoPiece && pc.Type().CanPromote() && pc.Type().Promote() == pt:
		m = NewBoardMove(from, to, pc, c.pos.board[to], true)
	default: // as written: legality names what is wrong
		m = NewBoardMove(from, to, NewPiece(col, pt), c.pos.board[to], false)
	}
	return c.play(m, s, n)
}

// parseCSATime reads the seconds of a T statement ("12" or "12.345").
func parseCSATime(s string) (time.Duration, bool) {
	whole, frac, hasFrac := strings.Cut(s, ".")
	secs, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || secs < 0 || secs > 1<<31 {
		return 0, false
	}
	d := time.Duration(secs) * time.Second
	if hasFrac {
		if frac == "" || len(frac) > 9 {
			return 0, false
		}
		f, err := strconv.ParseUint(frac, 10, 64)
		if err != nil {
			return 0, false
		}
		for i := len(frac); i < 9; i++ {
			f *= 10
		}
		d += time.Duration(f)
	}
	return d, true
}

// WriteCSA writes records in CSA of version v (CSAV22 or CSAV30; the
// default is 2.2), several records separated by "/" lines. The metadata
// CSA has keys for (players, event, site, start and end time, opening)
// and the "$KEY" headers are written as such; other KIF headers become
// "'" comments (which readers ignore). Bookmarks and variations cannot be
// carried by CSA and are left out, and so is an ending CSA has no special
// move for (封じ手 is written as %CHUDAN).
func WriteCSA(w io.Writer, v CSAVersion, recs ...*Record) error {
	var b strings.Builder
	if v == CSAV30 {
		b.WriteString("'CSA encoding=UTF-8\nV3.0\n")
	} else {
		b.WriteString("V2.2\n")
	}
	for i, r := range recs {
		if i > 0 {
			b.WriteString("/\n")
		}
		if err := writeCSARecord(&b, r, v); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeCSARecord(b *strings.Builder, r *Record, v CSAVersion) error {
	p, err := r.StartPosition()
	if err != nil {
		return err
	}
	var names [2]bool
	for _, h := range r.Header {
		value := strings.ReplaceAll(h.Value, "\n", `\n`)
		switch {
		case h.Key == "先手" || h.Key == "下手":
			if !names[Black] {
				b.WriteString("N+" + value + "\n")
			}
			names[Black] = true
		case h.Key == "後手" || h.Key == "上手":
			if !names[White] {
				b.WriteString("N-" + value + "\n")
			}
			names[White] = true
		case kifToCSAKeys[h.Key] != "":
			b.WriteString(kifToCSAKeys[h.Key] + ":" + value + "\n")
		case strings.HasPrefix(h.Key, "$"):
			b.WriteString(h.Key + ":" + value + "\n")
		default:
			// No CSA key: kept for people as a comment.
			b.WriteString("'" + h.Key + "：" + value + "\n")
		}
	}
	if hc := r.Handicap(); hc != "" {
		h, _ := LookupHandicap(hc)
		b.WriteString(h.CSA + "\n")
	} else {
		for rk := 1; rk <= 9; rk++ {
			b.WriteString("P" + strconv.Itoa(rk))
			for f := 9; f >= 1; f-- {
				pc := p.board[NewSquare(f, rk)]
				if pc == NoPiece {
					b.WriteString(" * ")
				} else {
					b.WriteString(csaSign(pc.Color()) + csaCodes[pc.Type()])
				}
			}
			b.WriteString("\n")
		}
		for c := Black; c <= White; c++ {
			if p.hands[c] == 0 {
				continue
			}
			b.WriteString("P" + csaSign(c))
			for _, pt := range HandTypes {
				for range p.hands[c].Count(pt) {
					b.WriteString("00" + csaCodes[pt])
				}
			}
			b.WriteString("\n")
		}
	}
	b.WriteString(csaSign(p.side) + "\n")
	for _, c := range r.StartComments {
		writeComment(b, "'*", c)
	}
	for i, nd := range r.Main.Moves {
		if ok, why := p.IsLegal(nd.Move); !ok {
			return &ReplayError{File: r.File, Ply: i + 1, Text: nd.Move.USI(), Move: nd.Move, Kind: why}
		}
		b.WriteString(csaMove(p, nd.Move) + csaTime(nd.Time, v) + "\n")
		for _, c := range nd.Comments {
			writeComment(b, "'*", c)
		}
		p.DoMove(nd.Move)
	}
	e := &r.Main.End
	stm := p.side
	if e.Illegal != nil {
		b.WriteString(csaMove(p, e.Illegal.Move) + "\n")
	}
	if word, ok := csaEndWord(e, stm); ok {
		b.WriteString(word + csaTime(e.Time, v) + "\n")
		for _, c := range e.Comments {
			writeComment(b, "'*", c)
		}
	}
	return nil
}

func csaSign(c Color) string {
	if c == Black {
		return "+"
	}
	return "-"
}

// csaMove writes m, played in p, as +7776FU.
func csaMove(p *Position, m Move) string {
	to := m.To()
	dest := strconv.Itoa(to.File()) + strconv.Itoa(to.Rank())
	if m.IsDrop() {
		return csaSign(p.side) + "00" + dest + csaCodes[m.DroppedType()]
	}
	from := m.From()
	pt := p.movePieceType(m)
	if m.IsPromotion() && pt.CanPromote() {
		pt = pt.Promote()
	}
	return csaSign(p.side) + strconv.Itoa(from.File()) + strconv.Itoa(from.Rank()) + dest + csaCodes[pt]
}

// csaTime writes ",T<seconds>" (V3.0: with milliseconds when needed).
func csaTime(t MoveTime, v CSAVersion) string {
	if !t.HasSpent {
		return ""
	}
	secs := int64(t.Spent / time.Second)
	s := ",T" + strconv.FormatInt(secs, 10)
	if ms := int64(t.Spent%time.Second) / int64(time.Millisecond); v == CSAV30 && ms > 0 {
		s += fmt.Sprintf(".%03d", ms)
	}
	return s
}
