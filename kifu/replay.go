package kifu

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Errors of record reading.
var (
	// ErrRecordSyntax is wrapped by errors about record text that cannot
	// be read (other than move text, see ErrMoveSyntax).
	ErrRecordSyntax = errors.New("invalid record")
	// ErrNotText is wrapped by errors about input that is not text.
	ErrNotText = errors.New("not text")
)

// ParseError reports record text that cannot be read: where (File, Line),
// what was found (Text) and what was expected (Err).
type ParseError struct {
	Format Format
	File   string
	Line   int // 1-based; 0 if unknown
	Text   string
	Err    error
}

func (e *ParseError) Error() string {
	// The reason may itself be a kifu error (a MoveSyntaxError): do not
	// repeat the package prefix.
	reason := strings.TrimPrefix(e.Err.Error(), "kifu: ")
	if e.Text == "" { // nothing to show: not `(found "")`
		return fmt.Sprintf("kifu: %s: %s: %s", fileLine(e.File, e.Line), e.Format, reason)
	}
	return fmt.Sprintf("kifu: %s: %s: %s (found %s)", fileLine(e.File, e.Line), e.Format, reason, quoteRunes(e.Text))
}

func (e *ParseError) Unwrap() error { return e.Err }

func fileLine(file string, line int) string {
	if file == "" {
		file = "<input>"
	}
	if line > 0 {
		return file + ":" + strconv.Itoa(line)
	}
	return file
}

// syntaxError is the reason of a ParseError; it wraps ErrRecordSyntax.
type syntaxError string

func (e syntaxError) Error() string { return string(e) }
func (e syntaxError) Unwrap() error { return ErrRecordSyntax }

// ReplayError reports a move of a record that is illegal or cannot be
// resolved to a move (an ambiguous KI2 move, a piece that cannot get
// there): the file, line, ply (1 = the first move), the move text, the
// rule broken (Kind) or, when no move could be found, the Reason.
// It wraps ErrIllegalMove when Kind is set and ErrMoveSyntax otherwise.
type ReplayError struct {
	File      string
	Line      int
	Ply       int
	Text      string
	Move      Move // the move as read, MoveNone if it could not be resolved
	Kind      IllegalMoveKind
	Reason    string
	Variation bool // the move is in a variation, not the main line
}

func (e *ReplayError) Error() string {
	what := "main line"
	if e.Variation {
		what = "variation"
	}
	s := fmt.Sprintf("kifu: %s: %s ply %d %s", fileLine(e.File, e.Line), what, e.Ply, quoteRunes(e.Text))
	if e.Move != MoveNone {
		s += " (" + e.Move.USI() + ")"
	}
	if e.Kind != LegalMove {
		return s + ": illegal move: " + e.Kind.String()
	}
	return s + ": " + e.Reason
}

func (e *ReplayError) Unwrap() error {
	if e.Kind != LegalMove {
		return ErrIllegalMove
	}
	return ErrMoveSyntax
}

// StartPosition returns the position before the first move.
func (r *Record) StartPosition() (*Position, error) {
	return ParseSFEN(r.StartSFEN)
}

// Replay plays the main line on the start position, checking every move
// with IsLegal, and returns the position after it. If a move is illegal,
// or the record's main line stopped at a move that is illegal or could not
// be resolved (ReplayErr), it returns the position after the legal prefix
// and a *ReplayError.
func (r *Record) Replay() (*Position, error) {
	p, err := r.StartPosition()
	if err != nil {
		return nil, err
	}
	for i, n := range r.Main.Moves {
		if ok, why := p.IsLegal(n.Move); !ok {
			return p, &ReplayError{File: r.File, Ply: i + 1, Text: n.Move.USI(), Move: n.Move, Kind: why}
		}
		p.DoMove(n.Move)
	}
	if r.ReplayErr != nil {
		return p, r.ReplayErr
	}
	return p, nil
}

// builder is the state shared by the readers: the record being built, the
// line of play being read and the position at its end. Readers resolve
// every move against the position as they go.
type builder struct {
	rec    *Record
	format Format
	pos    *Position    // the position at the end of the current line
	open   []openBranch // open lines of play; open[0] is the main line
	ended  bool         // the current line has its terminal
	// pending is an illegal move waiting for a foul terminal (§6 rule 11).
	pending *pendingMove
	// early holds comments given before the first move of a variation.
	early []string
	// reps counts the occurrences of each position (Position.Key) of the
	// current line, so that the fourfold repetition is found without a
	// scan of the history at every move.
	reps map[uint64]int32
	// rep is the ending of the current line by fourfold repetition (千日手,
	// or the loss of the side that gave perpetual check), once its last
	// move is played: a terminal may follow; a move may not.
	rep *repetitionEnd
	// cut holds the moves skipped after the fourfold repetition.
	cut *cutMoves
	// warned counts the warnings given, listed or not (maxWarnings).
	warned int
}

// repetitionEnd is the fourfold repetition that ended a line.
type repetitionEnd struct {
	end  Ending
	ply  int // the move that made the position occur the fourth time
	line int
}

// cutMoves are the moves of a line after the fourfold repetition ended
// it: they are not part of the game.
type cutMoves struct {
	rep         repetitionEnd
	first, last int // lines
	moves       int
}

// maxWarnings bounds the warnings listed in a Record; the rest are
// counted in a last warning.
const maxWarnings = 100

type openBranch struct {
	br    *Branch
	first int // ply of the first move
}

type pendingMove struct {
	ill  IllegalMove
	line int
	ply  int
}

func newBuilder(rec *Record, f Format) *builder {
	rec.Format = f
	return &builder{rec: rec, format: f}
}

// setStart fixes the start position.
func (b *builder) setStart(p *Position) {
	b.pos = p
	b.rec.StartSFEN = p.SFEN()
	b.open = []openBranch{{br: &b.rec.Main, first: 1}}
	b.reps = map[uint64]int32{p.Key(): 1}
}

// warn records a warning about line.
func (b *builder) warn(line int, text, reason string) {
	b.warned++
	if b.warned <= maxWarnings {
		b.rec.Warnings = append(b.rec.Warnings, Warning{File: b.rec.File, Line: line, Text: text, Reason: reason})
	}
}

// countPosition counts the position reached by the move just played on
// line and notes the end of the line if it occurs for the fourth time.
func (b *builder) countPosition(line int) {
	k := b.pos.Key()
	b.reps[k]++
	if b.reps[k] < 4 {
		return
	}
	if st := b.pos.Sennichite(); st != NoRepetition {
		b.rep = &repetitionEnd{end: repetitionEnding(st, b.pos.side), ply: b.ply() - 1, line: line}
	}
}

// afterEnd reports whether the line was ended by a fourfold repetition:
// a move (on line) after it is then skipped, and counted in a warning.
func (b *builder) afterEnd(line int) bool {
	switch {
	case b.cut != nil:
		b.cut.last = line
		b.cut.moves++
		return true
	case b.rep != nil:
		b.cut = &cutMoves{rep: *b.rep, first: line, last: line, moves: 1}
		b.closeRepetition()
		return true
	}
	return false
}

// closeRepetition ends the current line by its fourfold repetition.
func (b *builder) closeRepetition() {
	if b.rep == nil {
		return
	}
	b.cur().br.End = b.rep.end
	b.ended = true
	b.rep = nil
}

// closeLine ends the current line where the reading of it stops: at its
// fourfold repetition if no terminal followed, with a warning for the
// moves skipped after it.
func (b *builder) closeLine() {
	b.closeRepetition()
	if c := b.cut; c != nil {
		b.cut = nil
		what := "the main line"
		if len(b.open) > 1 {
			what = "a variation"
		}
		lines := fmt.Sprintf("line %d", c.first)
		if c.last != c.first {
			lines = fmt.Sprintf("lines %d-%d", c.first, c.last)
		}
		b.warn(c.first, "", fmt.Sprintf("%d moves (%s) after %s ended by %s at ply %d (line %d) are not part of the game; ignored",
			c.moves, lines, what, repetitionWords(c.rep.end), c.rep.ply, c.rep.line))
	}
}

// repetitionWords names the ending of a line by fourfold repetition.
func repetitionWords(e Ending) string {
	if e.Kind == EndRepetition {
		return "fourfold repetition (千日手)"
	}
	return "perpetual check (連続王手の千日手, a loss for the side giving check)"
}

func (b *builder) cur() *openBranch { return &b.open[len(b.open)-1] }

// ply returns the ply number of the next move of the current line.
func (b *builder) ply() int { c := b.cur(); return c.first + len(c.br.Moves) }

func (b *builder) syntax(line int, text, reason string) *ParseError {
	return &ParseError{Format: b.format, File: b.rec.File, Line: line, Text: text, Err: syntaxError(reason)}
}

func (b *builder) replayError(line, ply int, text string, m Move, kind IllegalMoveKind, reason string) *ReplayError {
	e := &ReplayError{File: b.rec.File, Line: line, Ply: ply, Text: text, Move: m, Kind: kind, Reason: reason,
		Variation: len(b.open) > 1}
	if !e.Variation {
		b.rec.ReplayErr = e
	}
	return e
}

// failPending reports the pending illegal move.
func (b *builder) failPending() error {
	pm := b.pending
	b.pending = nil
	return b.replayError(pm.line, pm.ply, pm.ill.Text, pm.ill.Move, pm.ill.Kind, "")
}

// play appends move m (as read from text on line) to the current line if
// it is legal; an illegal move is held until the next statement shows
// whether a foul terminal follows.
func (b *builder) play(m Move, text string, line int) error {
	if b.afterEnd(line) {
		return nil
	}
	if b.ended {
		return b.syntax(line, text, "a move after the end of the game ("+b.cur().br.End.Word+")")
	}
	if b.pending != nil {
		return b.failPending()
	}
	kind := b.pos.legality(m)
	if kind != LegalMove {
		b.pending = &pendingMove{ill: IllegalMove{Move: m, Text: text, Kind: kind}, line: line, ply: b.ply()}
		return nil
	}
	b.pos.DoMove(m)
	c := b.cur()
	c.br.Moves = append(c.br.Moves, Node{Move: b.pos.LastMove(), Comments: b.early})
	b.early = nil
	b.countPosition(line)
	return nil
}

// unresolved reports move text that names no single move.
func (b *builder) unresolved(text string, line int, reason string) error {
	if b.afterEnd(line) {
		return nil
	}
	if b.ended {
		return b.syntax(line, text, "a move after the end of the game ("+b.cur().br.End.Word+")")
	}
	if b.pending != nil {
		return b.failPending()
	}
	return b.replayError(line, b.ply(), text, MoveNone, LegalMove, reason)
}

// terminal ends the current line with e. named tells whether e.Result
// names the winner outright (CSA %±ILLEGAL_ACTION, a KI2 まで line)
// rather than deriving it from the side to move.
func (b *builder) terminal(e Ending, named bool, text string, line int) error {
	if b.ended || b.cut != nil {
		// A second terminal right after the first (%KACHI twice, 投了
		// then 中断 in real files): the line ended at the first. Or the
		// terminal after moves skipped past a fourfold repetition.
		return nil
	}
	if r := b.rep; r != nil {
		// The terminal right after the fourfold repetition: kept if it
		// says how the game ended by it.
		b.rep = nil
		switch {
		case e.Kind == r.end.Kind && e.Result == r.end.Result:
		case r.end.Kind == EndIllegal && e.Kind == EndRepetition:
			b.warn(line, text, fmt.Sprintf("the repetition at ply %d is %s: read as a win for %s",
				r.ply, repetitionWords(r.end), resultWinner(r.end.Result)))
			e.Kind, e.Result = r.end.Kind, r.end.Result
		default:
			b.warn(line, text, fmt.Sprintf("the game had ended by %s at ply %d; this ending is ignored",
				repetitionWords(r.end), r.ply))
			r.end.Time, r.end.Comments = e.Time, e.Comments
			e = r.end
		}
	}
	if pm := b.pending; pm != nil {
		offender := b.pos.side
		if e.Kind != EndIllegal || (named && e.Result != winFor(offender.Opp())) {
			return b.failPending()
		}
		e.Result = winFor(offender.Opp())
		ill := pm.ill
		e.Illegal = &ill
		e.Comments = append(b.early, e.Comments...) // comments on the illegal move
		b.early = nil
		b.pending = nil
	}
	b.cur().br.End = e
	b.ended = true
	return nil
}

// summary applies a KIF/KI2 まで line: it gives the ending when the line
// has no terminal yet (KI2), and is otherwise informative.
func (b *builder) summary(s string, line int) error {
	if b.ended {
		return nil
	}
	e, _, _ := parseSummary(s, b.pos.side.Opp())
	return b.terminal(e, true, s, line)
}

// setTime gives the time of the last move or terminal.
func (b *builder) setTime(t MoveTime) {
	if len(b.open) == 0 || b.cut != nil {
		return
	}
	c := b.cur()
	switch {
	case b.ended:
		c.br.End.Time = t
	case b.pending != nil:
	case len(c.br.Moves) > 0:
		c.br.Moves[len(c.br.Moves)-1].Time = t
	}
}

// setScore gives the engine score of the last move (a CSA "'**"
// line), if the last thing read is a move.
func (b *builder) setScore(v int32) {
	if len(b.open) == 0 || b.cut != nil || b.ended || b.pending != nil {
		return
	}
	if c := b.cur(); len(c.br.Moves) > 0 {
		c.br.Moves[len(c.br.Moves)-1].Score = Score{Value: v, OK: true}
	}
}

// comment attaches a comment to the last move (or terminal, or the start
// position).
func (b *builder) comment(s string) {
	if len(b.open) == 0 {
		b.rec.StartComments = append(b.rec.StartComments, s)
		return
	}
	c := b.cur()
	switch {
	case b.cut != nil: // on a move skipped after a fourfold repetition
	case b.ended:
		c.br.End.Comments = append(c.br.End.Comments, s)
	case b.pending != nil:
		b.early = append(b.early, s) // dropped with the move unless a terminal follows
	case len(c.br.Moves) > 0:
		n := &c.br.Moves[len(c.br.Moves)-1]
		n.Comments = append(n.Comments, s)
	case len(b.open) == 1:
		b.rec.StartComments = append(b.rec.StartComments, s)
	default:
		b.early = append(b.early, s)
	}
}

// bookmark sets the bookmark (しおり) of the last move.
func (b *builder) bookmark(s string) {
	if len(b.open) == 0 || b.cut != nil {
		return
	}
	c := b.cur()
	if !b.ended && b.pending == nil && len(c.br.Moves) > 0 {
		c.br.Moves[len(c.br.Moves)-1].Bookmark = s
	}
}

// variation starts a variation (変化) replacing the move at ply n: the
// open lines starting at n or later are closed, and the new line hangs on
// the move of the line left on top (formats.md §2.8).
func (b *builder) variation(n int, text string, line int) error {
	if b.pending != nil {
		return b.failPending()
	}
	b.closeLine()
	// Lenient: a line that does not reach ply n cannot be the parent
	// either (files whose blocks all branch from the main line).
	for len(b.open) > 1 && (b.cur().first >= n || b.cur().first+len(b.cur().br.Moves) <= n) {
		b.open = b.open[:len(b.open)-1]
	}
	parent := b.cur()
	idx := n - parent.first
	if idx < 0 || idx >= len(parent.br.Moves) {
		return b.syntax(line, text, fmt.Sprintf("a variation at move %d, but the line it branches from has moves %d to %d",
			n, parent.first, parent.first+len(parent.br.Moves)-1))
	}
	p, err := ParseSFEN(b.rec.StartSFEN)
	if err != nil {
		return err // cannot happen: the start position was read by ParseSFEN
	}
	b.reps = map[uint64]int32{p.Key(): 1}
	for i, o := range b.open {
		end := n - 1 // last ply to play in this line
		if i+1 < len(b.open) {
			end = b.open[i+1].first - 1
		}
		for _, nd := range o.br.Moves[:end-o.first+1] {
			p.DoMove(nd.Move)
			b.reps[p.Key()]++
		}
	}
	br := &Branch{}
	parent.br.Moves[idx].Variations = append(parent.br.Moves[idx].Variations, br)
	b.open = append(b.open, openBranch{br: br, first: n})
	b.pos = p
	b.ended = false
	b.early = nil
	return nil
}

// finish closes the record: a pending illegal move with no foul terminal
// after it is an error.
func (b *builder) finish() error {
	if b.pending != nil {
		return b.failPending()
	}
	if len(b.open) > 0 {
		b.closeLine()
	}
	if n := b.warned - maxWarnings; n > 0 {
		b.rec.Warnings = append(b.rec.Warnings, Warning{File: b.rec.File, Reason: fmt.Sprintf("%d more warnings not listed", n)})
	}
	return nil
}
