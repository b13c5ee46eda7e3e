package kifu

import (
	"io"
	"strings"
	"unicode/utf8"
)

// ParseKI2 reads one KI2 record (formats.md §3) from UTF-8 text: the
// headers and start position as in KIF, moves in newspaper notation
// (▲７六歩 △３四歩 ...) several to a line, resolved against the legal
// moves, and the result from the まで line. Errors are as for ParseKIF.
func ParseKI2(r io.Reader) (*Record, error) {
	text, err := readText(r)
	if err != nil {
		return nil, err
	}
	return parseKakinoki("", text, FormatKI2)
}

// ki2Line reads a line of KI2 move tokens, each starting with a mark.
func (k *kakinoki) ki2Line(s string, n int) error {
	for s != "" {
		_, sz := utf8.DecodeRuneInString(s)
		end := len(s)
		for i, r := range s[sz:] {
			if _, ok := moveMarks[r]; ok {
				end = sz + i
				break
			}
		}
		tok := strings.Trim(s[:end], " \t　")
		s = s[end:]
		if err := k.ki2Token(tok, n); err != nil {
			return err
		}
	}
	return nil
}

// ki2Token reads one token: a move or a special word (▲投了).
func (k *kakinoki) ki2Token(tok string, n int) error {
	_, sz := utf8.DecodeRuneInString(tok)
	if w, ok := kifEndWords[tok[sz:]]; ok {
		return k.terminal(w.ending(tok[sz:], k.pos.side), false, tok, n)
	}
	if k.pending != nil {
		return k.failPending()
	}
	if k.afterEnd(n) {
		return nil
	}
	if k.ended {
		return k.syntax(n, tok, "a move after the end of the game ("+k.cur().br.End.Word+")")
	}
	mt, reason := parseKI2MoveText(tok)
	if reason != "" {
		return &ParseError{Format: k.format, File: k.rec.File, Line: n, Text: tok,
			Err: &MoveSyntaxError{Text: tok, Reason: reason}}
	}
	if mt.color != k.pos.side {
		return k.syntax(n, tok, "the mark names the side not to move")
	}
	m, _, reason := resolveKI2(k.pos, &mt)
	if reason != "" {
		return k.unresolved(tok, n, reason)
	}
	return k.play(m, tok, n)
}

// WriteKI2 writes r in KI2 (UTF-8): headers, 手合割 or a board diagram,
// the moves in newspaper notation with the fewest JSA relative words,
// comments, the まで result line, then the variations as 変化 blocks.
// KI2 has no times.
func WriteKI2(w io.Writer, r *Record) error {
	return writeKakinoki(w, r, true)
}

// ki2Token writes a move token, six to a line; a token followed by
// comments ends its line. It returns the number of tokens on the line.
func (kw *kakinokiWriter) ki2Token(text string, tokens int, endLine bool) int {
	if tokens > 0 {
		kw.b.WriteString(strings.Repeat(" ", max(2, 14-kw.lastWidth)))
	}
	kw.b.WriteString(text)
	kw.lastWidth = displayWidth(text)
	tokens++
	if endLine || tokens == 6 {
		kw.b.WriteString("\n")
		return 0
	}
	return tokens
}
