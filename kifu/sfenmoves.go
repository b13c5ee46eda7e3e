package kifu

import (
	"io"
	"strings"
)

// ParseSFENMoves reads games written one per line as USI position
// arguments: "startpos moves 7g7f 3c3d ..." or "sfen <SFEN> moves ..."
// (a leading "position" is accepted; blank lines and lines starting with
// "#" are skipped). The form has no metadata, times or results.
//
// As with ParseCSA, a game whose moves stop at an illegal move is returned
// with its legal prefix and ReplayErr set, and reading goes on; the first
// such error is returned with all the games. A line that cannot be read
// stops reading with a *ParseError.
func ParseSFENMoves(r io.Reader) ([]*Record, error) {
	text, err := readText(r)
	if err != nil {
		return nil, err
	}
	return parseSFENMoves("", text)
}

func parseSFENMoves(name, text string) ([]*Record, error) {
	var recs []*Record
	var firstErr error
	for i, raw := range splitLines(text) {
		s := strings.TrimSpace(raw)
		if s == "" || s[0] == '#' {
			continue
		}
		rec := &Record{File: name, Index: len(recs)}
		b := newBuilder(rec, FormatSFEN)
		err := b.sfenLine(s, i+1)
		if _, ok := err.(*ReplayError); err != nil && !ok {
			return recs, err
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
		recs = append(recs, rec)
	}
	return recs, firstErr
}

// sfenLine reads one game.
func (b *builder) sfenLine(s string, n int) error {
	p, moves, err := splitUSIPosition(strings.Fields(s))
	if reason, ok := err.(positionSyntax); ok {
		return b.syntax(n, s, string(reason))
	}
	if err != nil {
		return &ParseError{Format: FormatSFEN, File: b.rec.File, Line: n, Text: s, Err: err}
	}
	b.setStart(p)
	if len(moves) == 0 {
		return nil
	}
	for _, t := range moves {
		m16, err := ParseMove16(t)
		if err != nil {
			return &ParseError{Format: FormatSFEN, File: b.rec.File, Line: n, Text: t, Err: err}
		}
		if err := b.play(b.pos.ToMove(m16), t, n); err != nil {
			return err
		}
	}
	return b.finish()
}

// WriteSFENMoves writes each record on one line as "startpos moves ..."
// or "sfen <SFEN> moves ..." (only the start position and the main line;
// an illegal move kept in the ending is left out).
func WriteSFENMoves(w io.Writer, recs ...*Record) error {
	var b strings.Builder
	for _, r := range recs {
		if r.StartSFEN == StartSFEN {
			b.WriteString("startpos")
		} else {
			b.WriteString("sfen " + r.StartSFEN)
		}
		if len(r.Main.Moves) > 0 {
			b.WriteString(" moves")
			for _, nd := range r.Main.Moves {
				b.WriteString(" " + nd.Move.USI())
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
