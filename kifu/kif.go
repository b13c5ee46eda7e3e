package kifu

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ParseKIF reads one KIF record (柿木形式, formats.md §2) from UTF-8 text:
// headers, a 手合割 or board-diagram start, numbered move lines with
// times, comments (*), bookmarks (&), special moves and 変化 variations.
// Every move is resolved and checked as it is read.
//
// A syntax error gives a nil record and a *ParseError. A move that is
// illegal (not followed by a foul terminal, formats.md §6 rule 11) or
// names no move gives the record read so far and a *ReplayError, which is
// also kept in the record's ReplayErr when it is in the main line. A
// line that is not KIF is skipped with a warning (Record.Warnings); a
// text with no move and such lines is a *ParseError at the first of them,
// not a record of 0 moves.
func ParseKIF(r io.Reader) (*Record, error) {
	text, err := readText(r)
	if err != nil {
		return nil, err
	}
	return parseKakinoki("", text, FormatKIF)
}

// readText reads all of r as text.
func readText(r io.Reader) (string, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("kifu: reading record: %w", err)
	}
	return string(b), nil
}

// splitLines splits text into lines at CR LF, LF or a lone CR, dropping
// a UTF-8 BOM.
func splitLines(text string) []string {
	text = strings.TrimPrefix(text, "\uFEFF")
	if strings.IndexByte(text, '\r') >= 0 {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// trimEnd drops trailing spaces, tabs and full-width spaces.
func trimEnd(s string) string { return strings.TrimRight(s, " \t　") }

// cutKey splits a header line "key：value" at its first colon (full- or
// half-width); ok is false when the line is not a header.
func cutKey(s string) (key, value string, ok bool) {
	i := strings.IndexAny(s, "：:")
	if i <= 0 {
		return "", "", false
	}
	key = s[:i]
	if strings.ContainsAny(key, " \t") {
		return "", "", false
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return key, strings.Trim(s[i+n:], " \t　"), true
}

// kakinoki reads KIF and KI2, which share everything but move lines.
type kakinoki struct {
	*builder
	ki2      bool
	started  bool // the start position is fixed
	bod      setup
	bodRows  int
	bodLine  int
	handicap string
	hcLine   int
	handLine int
	base     int // move number of the first move minus 1 (KIF)
	numbered bool
	// unknownLine is the first line not understood (0 if none), and
	// unknownText its text.
	unknownLine int
	unknownText string
}

func parseKakinoki(name, text string, f Format) (*Record, error) {
	rec := &Record{File: name}
	k := &kakinoki{builder: newBuilder(rec, f), ki2: f == FormatKI2}
	for i, raw := range splitLines(text) {
		if err := k.line(trimEnd(raw), i+1); err != nil {
			if _, ok := err.(*ReplayError); ok {
				return rec, err
			}
			return nil, err
		}
	}
	if err := k.startPosition(); err != nil {
		return nil, err
	}
	if k.unknownLine > 0 && len(rec.Main.Moves) == 0 && rec.Main.End.Kind == EndNone && k.pending == nil {
		// Nothing read but lines not understood: another format, or
		// moves in a notation this reader does not know. Never a game of
		// 0 moves.
		return nil, k.syntax(k.unknownLine, k.unknownText, "no move read, and this line is not "+
			strings.ToUpper(f.String())+" (a record in another format, or moves in a notation this reader does not know?)")
	}
	if err := k.finish(); err != nil {
		return rec, err
	}
	return rec, nil
}

// startPosition fixes the start position once the first move (or the end
// of the text) is reached: a board diagram, else 手合割, else 平手.
func (k *kakinoki) startPosition() error {
	if k.started {
		return nil
	}
	k.started = true
	var p *Position
	var err error
	switch {
	case k.bodRows > 0:
		if k.bodRows != 9 {
			return k.syntax(k.bodLine, "|", fmt.Sprintf("a board diagram needs 9 rows, found %d", k.bodRows))
		}
		if p, err = k.bod.position(); err != nil {
			return &ParseError{Format: k.format, File: k.rec.File, Line: k.bodLine, Text: "|", Err: err}
		}
	case k.bod.hands != [ColorNB]Hand{}:
		return k.syntax(k.handLine, "持駒", "pieces in hand without a board diagram (want the | rows of a diagram)")
	case k.handicap != "":
		h, ok := LookupHandicap(k.handicap)
		if !ok {
			return k.syntax(k.hcLine, "手合割："+k.handicap,
				"unknown 手合割 without a board diagram (want 平手, 香落ち, 角落ち, 飛車落ち, 二枚落ち, ... or a board diagram)")
		}
		p, _ = ParseSFEN(h.SFEN)
	default:
		p = NewStartPosition()
	}
	k.setStart(p)
	return nil
}

// line classifies and reads one line (formats.md §2.1).
func (k *kakinoki) line(s string, n int) error {
	if s == "" || s[0] == '#' {
		return nil
	}
	body := strings.TrimLeft(s, " 　\t")
	if !k.started {
		if done, err := k.setupLine(s, n); done || err != nil {
			return err
		}
	} else if isSetupLine(s) {
		return nil // a diagram of the final position after the moves
	}
	switch {
	case body[0] >= '0' && body[0] <= '9' && isNumberedLine(body):
		if k.ki2 {
			return k.syntax(n, s, "a numbered KIF move line in a KI2 record")
		}
		if err := k.startPosition(); err != nil {
			return err
		}
		return k.kifMoveLine(body, s, n)
	case k.numbered && strings.TrimLeft(body, "0123456789") == "":
		// A bare number where the moves are: a record cut after the move
		// number of its next move. Never read it as a shorter game.
		return k.syntax(n, s, "a move number with no move after it (is the file truncated?)")
	case isMarkLine(body):
		if !k.ki2 {
			if _, _, ok := cutKey(s); ok {
				break // a header after all
			}
			return k.syntax(n, s, "a KI2 move (▲/△) in a KIF record; want a numbered move line")
		}
		if err := k.startPosition(); err != nil {
			return err
		}
		return k.ki2Line(body, n)
	}
	switch {
	case strings.HasPrefix(s, "変化"):
		return k.variationLine(s, n)
	case s[0] == '*':
		k.comment(s[1:])
		return nil
	case s[0] == '&':
		k.bookmark(s[1:])
		return nil
	case strings.HasPrefix(s, "まで"):
		if !k.started {
			if err := k.startPosition(); err != nil {
				return err
			}
		}
		return k.summary(s, n)
	}
	if key, value, ok := cutKey(s); ok {
		if key == "手合割" {
			if !k.started {
				k.handicap, k.hcLine = value, n
			}
			return nil
		}
		k.rec.Header = append(k.rec.Header, HeaderField{key, value})
		return nil
	}
	if r, _ := utf8.DecodeRuneInString(body); len(k.rec.Main.Moves) > 0 && (digitValues[r] > 0 && r >= 0x80 || r == '同') {
		if k.ki2 {
			return k.syntax(n, s, "a move without its mark; want ▲ or △ before each move")
		}
		return k.syntax(n, s, "a move without a move number; want a numbered move line")
	}
	if isKakinokiProse(body) {
		return nil
	}
	if k.unknownLine == 0 {
		k.unknownLine, k.unknownText = n, s
	}
	k.warn(n, s, "a line that is not "+strings.ToUpper(k.format.String())+" (not a header, move, comment or board line); ignored")
	return nil
}

// isKakinokiProse reports whether s (trimmed on the left) is one of the
// lines KIF and KI2 writers put around the moves that carry nothing to
// read: the 手数----指手---- ruler of the move list, "手数＝N …" under a
// board diagram, board frames (+----+) and file rulers (９ ８ ７ …), and
// 盤面回転 (the board is shown rotated).
func isKakinokiProse(s string) bool {
	switch {
	case strings.HasPrefix(s, "手数"), s == "盤面回転":
		return true
	case s[0] == '+':
		return strings.Trim(s, "+-") == ""
	}
	for _, r := range s {
		if r != ' ' && r != '　' && r != '\t' && digitValues[r] == 0 && (r < '1' || r > '9') {
			return false
		}
	}
	return true
}

// isNumberedLine reports whether s (trimmed on the left) is "digits,
// space, something".
func isNumberedLine(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i < len(s) && (s[i] == ' ' || s[i] == '\t' || strings.HasPrefix(s[i:], "　"))
}

// isMarkLine reports whether s starts with a KI2 side mark.
func isMarkLine(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	_, ok := moveMarks[r]
	return ok
}

var handKeys = map[string]Color{"先手の持駒": Black, "下手の持駒": Black, "後手の持駒": White, "上手の持駒": White,
	"先手の持ち駒": Black, "下手の持ち駒": Black, "後手の持ち駒": White, "上手の持ち駒": White}

var sideLines = map[string]Color{"先手番": Black, "下手番": Black, "後手番": White, "上手番": White}

// isSetupLine reports whether s belongs to a board diagram.
func isSetupLine(s string) bool {
	if s[0] == '|' {
		return true
	}
	if _, ok := sideLines[s]; ok {
		return true
	}
	key, _, ok := cutKey(s)
	_, hand := handKeys[key]
	return ok && hand
}

// setupLine reads the board-diagram lines before the first move.
func (k *kakinoki) setupLine(s string, n int) (bool, error) {
	if s[0] == '|' {
		if k.bodRows >= 9 {
			return true, k.syntax(n, s, "a tenth board row")
		}
		if k.bodRows == 0 {
			k.bodLine = n
		}
		k.bodRows++
		if reason := k.bod.parseBODRow(s, k.bodRows); reason != "" {
			return true, k.syntax(n, s, reason)
		}
		return true, nil
	}
	if c, ok := sideLines[s]; ok {
		k.bod.side = c
		return true, nil
	}
	if key, value, ok := cutKey(s); ok {
		if c, ok := handKeys[key]; ok {
			h, reason := parseBODHand(value)
			if reason != "" {
				return true, k.syntax(n, s, reason)
			}
			k.bod.hands[c] = h
			if h != 0 {
				k.handLine = n
			}
			return true, nil
		}
	}
	return false, nil
}

// variationLine reads "変化：N手".
func (k *kakinoki) variationLine(s string, n int) error {
	_, v, ok := cutKey(s)
	if !ok {
		k.warn(n, s, "a line starting with 変化 that is not 変化：N手; ignored")
		return nil
	}
	if !k.started || len(k.rec.Main.Moves) == 0 {
		// A known writer bug: a 変化 header before any move.
		k.warn(n, s, "a variation (変化) before any move of the main line; ignored")
		return nil
	}
	v = strings.TrimSpace(v)
	v = strings.TrimSuffix(strings.TrimSuffix(v, "目"), "手")
	num, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || num < 1 {
		return k.syntax(n, s, "want 変化：N手 with a move number N")
	}
	if k.pending != nil {
		return k.failPending()
	}
	return k.variation(num-k.base, s, n)
}

// kifMoveLine reads a numbered KIF line: a move or a special move, with
// an optional time field (formats.md §2.5, §2.6).
func (k *kakinoki) kifMoveLine(body, s string, n int) error {
	i := 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
	}
	num, err := strconv.Atoi(body[:i])
	if err != nil {
		return k.syntax(n, s, "want a move number")
	}
	rest := strings.TrimLeft(body[i:], " \t　")
	if !k.numbered {
		k.numbered = true
		k.base = num - 1
	}
	want := k.ply()
	if k.pending != nil {
		want++
	}
	if num-k.base != want && !k.ended && k.cut == nil {
		return k.syntax(n, s, fmt.Sprintf("move number %d, want %d", num, want+k.base))
	}
	// Special move?
	word := rest
	if j := strings.IndexAny(word, " \t(　"); j >= 0 {
		word = word[:j]
	}
	if isMarkLine(word) {
		_, sz := utf8.DecodeRuneInString(word)
		word = word[sz:]
	}
	if word == "" {
		return k.syntax(n, s, "want a move or a special word (投了, 中断, ...) after the move number")
	}
	w, special := kifEndWords[word]
	if r, _ := utf8.DecodeRuneInString(rest); special || digitValues[r] == 0 && r != '同' && !isMarkLine(rest) {
		e := unknownEnding(word) // an unknown word: kept as an opaque terminal
		if special {
			e = w.ending(word, k.pos.side)
		}
		t, reason := parseKIFTime(rest[strings.Index(rest, word)+len(word):])
		if reason != "" {
			return k.syntax(n, s, reason)
		}
		if err := k.terminal(e, false, s, n); err != nil {
			return err
		}
		k.setTime(t)
		return nil
	}
	if k.afterEnd(n) {
		return nil
	}
	mt, after, reason := parseKIFMoveText(rest)
	if reason != "" {
		return &ParseError{Format: k.format, File: k.rec.File, Line: n, Text: s,
			Err: &MoveSyntaxError{Text: rest, Reason: reason}}
	}
	if mt.mark && mt.color != k.pos.side && k.pending == nil {
		return k.syntax(n, s, "the mark names the side not to move")
	}
	t, reason := parseKIFTime(after)
	if reason != "" {
		return k.syntax(n, s, reason)
	}
	m, reason := mt.kifMove(k.pos)
	text := strings.TrimSpace(strings.TrimSuffix(rest, after))
	if reason != "" {
		return k.unresolved(text, n, reason)
	}
	if err := k.play(m, text, n); err != nil {
		return err
	}
	k.setTime(t)
	return nil
}

// parseKIFTime reads the time field "( 0:16/00:00:16)" and what may
// follow it (a "+" variation mark, other text).
func parseKIFTime(s string) (MoveTime, string) {
	var t MoveTime
	s = strings.TrimLeft(s, " \t　")
	inner, ok := strings.CutPrefix(s, "(")
	if !ok {
		return t, ""
	}
	inner, _, ok = strings.Cut(inner, ")")
	if !ok {
		return t, "want a time field like ( 0:16/00:00:16), found no )"
	}
	spent, total, _ := strings.Cut(inner, "/")
	var good bool
	if t.Spent, t.HasSpent, good = parseClock(spent); !good {
		return t, "want a time field like ( 0:16/00:00:16)"
	}
	if t.Total, t.HasTotal, good = parseClock(total); !good {
		return t, "want a time field like ( 0:16/00:00:16)"
	}
	return t, ""
}

// parseClock reads "m:ss" or "h:mm:ss" (parts may be space-padded);
// an empty string is no time.
func parseClock(s string) (time.Duration, bool, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false, true
	}
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return 0, false, false
	}
	var secs int64
	for _, p := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil || v < 0 || v > 1<<31 {
			return 0, false, false
		}
		secs = secs*60 + v
	}
	return time.Duration(secs) * time.Second, true, true
}

// WriteKIF writes r in KIF (UTF-8, with a "#KIF version=2.0
// encoding=UTF-8" first line): headers, 手合割 or a board diagram, the
// main line with times, comments and bookmarks, its special move and
// summary line, then the variations as 変化 blocks.
func WriteKIF(w io.Writer, r *Record) error {
	return writeKakinoki(w, r, false)
}

// kakinokiWriter writes KIF or KI2.
type kakinokiWriter struct {
	b         strings.Builder
	ki2       bool
	names     [2]string
	lastWidth int // display width of the last KI2 token written
}

func writeKakinoki(w io.Writer, r *Record, ki2 bool) error {
	p, err := r.StartPosition()
	if err != nil {
		return err
	}
	kw := &kakinokiWriter{ki2: ki2}
	hc := r.Handicap()
	kw.names = sideNames(hc != "" && hc != "平手")
	b := &kw.b
	if !ki2 {
		b.WriteString("#KIF version=2.0 encoding=UTF-8\n")
	}
	for _, h := range r.Header {
		b.WriteString(h.Key + "：" + strings.ReplaceAll(h.Value, "\n", `\n`) + "\n")
	}
	if hc != "" {
		b.WriteString("手合割：" + hc + "\n")
	} else {
		writeBOD(b, p)
	}
	if !ki2 {
		b.WriteString("手数----指手---------消費時間--\n")
	}
	for _, c := range r.StartComments {
		writeComment(b, "*", c)
	}
	if err := kw.branch(p, 1, &r.Main, [2]time.Duration{}); err != nil {
		return err
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// branch writes a line of play starting at ply first from position p,
// then its variations; p is left as it was.
func (kw *kakinokiWriter) branch(p *Position, first int, br *Branch, totals [2]time.Duration) error {
	b := &kw.b
	tokens := 0
	snapshots := make([][2]time.Duration, len(br.Moves))
	for i := range br.Moves {
		nd := &br.Moves[i]
		snapshots[i] = totals
		if ok, why := p.IsLegal(nd.Move); !ok {
			for j := 0; j < i; j++ {
				p.UndoMove()
			}
			return &ReplayError{Ply: first + i, Text: nd.Move.USI(), Move: nd.Move, Kind: why}
		}
		if kw.ki2 {
			text, err := p.KI2Move(nd.Move)
			if err != nil {
				return err
			}
			tokens = kw.ki2Token(text, tokens, len(nd.Comments) > 0 || nd.Bookmark != "")
		} else {
			text := p.KIFMove(nd.Move)
			totals[p.side] = kifTotals(&nd.Time, totals[p.side])
			if ts := formatKIFTime(nd.Time, totals[p.side]); ts != "" {
				text = padText(text, 13) + ts
			}
			fmt.Fprintf(b, "%4d %s", first+i, text)
			if len(nd.Variations) > 0 {
				b.WriteString("+")
			}
			b.WriteString("\n")
		}
		for _, c := range nd.Comments {
			writeComment(b, "*", c)
		}
		if nd.Bookmark != "" {
			b.WriteString("&" + nd.Bookmark + "\n")
		}
		p.DoMove(nd.Move)
	}
	kw.ending(p, first+len(br.Moves), &br.End, totals, tokens)
	for i := len(br.Moves) - 1; i >= 0; i-- {
		p.UndoMove()
		for _, v := range br.Moves[i].Variations {
			fmt.Fprintf(b, "\n変化：%d手\n", first+i)
			if err := kw.branch(p, first+i, v, snapshots[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// ending writes the terminal of a line (the illegal move that caused it,
// if given), its comments and the summary line.
func (kw *kakinokiWriter) ending(p *Position, ply int, e *Ending, totals [2]time.Duration, tokens int) {
	b := &kw.b
	n := ply - 1
	stm := p.side
	if ill := e.Illegal; ill != nil {
		n++
		if kw.ki2 {
			text, err := p.KI2Move(ill.Move)
			if err != nil {
				text = map[Color]string{Black: "▲", White: "△"}[p.side] + p.KIFMove(ill.Move)
			}
			tokens = kw.ki2Token(text, tokens, true)
		} else {
			fmt.Fprintf(b, "%4d %s\n", ply, p.KIFMove(ill.Move))
		}
		ply++
		stm = stm.Opp()
	}
	if kw.ki2 && tokens > 0 {
		b.WriteString("\n")
	}
	word, hasWord := kifEndWord(e, stm)
	if hasWord && !kw.ki2 {
		if ts := formatKIFTime(e.Time, kifTotals(&e.Time, totals[stm])); ts != "" {
			word = padText(word, 13) + ts
		}
		fmt.Fprintf(b, "%4d %s\n", ply, word)
	} else {
		hasWord = false
	}
	summary, hasSummary := formatSummary(n, e, p.side, kw.names)
	if !hasWord && hasSummary {
		// The まで line is the terminal (always in KI2): comments on the
		// ending follow it.
		b.WriteString(summary + "\n")
	}
	if hasWord || hasSummary {
		for _, c := range e.Comments {
			writeComment(b, "*", c)
		}
	}
	if hasWord && hasSummary {
		b.WriteString(summary + "\n")
	}
}

// kifTotals returns the mover's cumulative time after a move: the one
// recorded, or the previous total plus the time spent.
func kifTotals(t *MoveTime, prev time.Duration) time.Duration {
	if t.HasTotal {
		return t.Total
	}
	return prev + t.Spent
}

// formatKIFTime writes the time field "( 0:16/00:00:16)"; the total is
// computed when the record has none.
func formatKIFTime(t MoveTime, total time.Duration) string {
	if !t.HasSpent && !t.HasTotal {
		return ""
	}
	s := "("
	if t.HasSpent {
		sec := int64(t.Spent / time.Second)
		s += fmt.Sprintf("%2d:%02d", sec/60, sec%60)
	}
	s += "/"
	if t.HasSpent || t.HasTotal {
		sec := int64(total / time.Second)
		s += fmt.Sprintf("%02d:%02d:%02d", sec/3600, sec/60%60, sec%60)
	}
	return s + ")"
}

// padText pads s with spaces to a display width of w columns (full-width
// characters count 2).
func padText(s string, w int) string {
	if width := displayWidth(s); width < w {
		s += strings.Repeat(" ", w-width)
	}
	return s
}

// displayWidth returns the width of s in columns (full-width characters
// count 2).
func displayWidth(s string) int {
	width := 0
	for _, r := range s {
		if r < 0x80 {
			width++
		} else {
			width += 2
		}
	}
	return width
}

// writeComment writes a comment line with its prefix ("*" in KIF and KI2,
// "'*" in CSA); a comment holding line breaks becomes several comments.
func writeComment(b *strings.Builder, prefix, c string) {
	for _, line := range strings.Split(strings.ReplaceAll(c, "\r", ""), "\n") {
		b.WriteString(prefix + line + "\n")
	}
}
