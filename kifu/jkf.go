package kifu

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// JSON Kifu Format (JKF), the record format of Kifu for JS, tsshogi and
// ShogiHome (github.com/na2hiro/json-kifu-format):
//
//	{"header": {"先手": "...", ...},
//	 "initial": {"preset": "HIRATE" | "KY" | ... | "OTHER", "data": {...}},
//	 "moves": [{"comments": [...]},                       // before the first move
//	           {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "piece": "FU", "color": 0},
//	            "time": {"now": {"m": 0, "s": 3}, "total": {"h": 0, "m": 0, "s": 3}},
//	            "comments": [...], "forks": [[...moves...], ...]},
//	           {"special": "TORYO"}]}
//
// A move's "forks" are the variations that replace it (Node.Variations).
// Terminals are the CSA words without "%" (TORYO, CHUDAN, SENNICHITE,
// TIME_UP, ILLEGAL_MOVE, ±ILLEGAL_ACTION, JISHOGI, KACHI, HIKIWAKE,
// MATTA, TSUMI, FUZUMI, ERROR, MAX_MOVES). JKF has no bookmarks, no
// sub-second times and no start move number; endings it has no word for
// are left out.

type jkfRecord struct {
	Header  jkfHeader   `json:"header"`
	Initial *jkfInitial `json:"initial,omitempty"`
	Moves   []jkfMove   `json:"moves"`
}

// jkfHeader is the header object, in source order.
type jkfHeader []HeaderField

func (h jkfHeader) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range h {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Key)
		v, _ := json.Marshal(f.Value)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (h *jkfHeader) UnmarshalJSON(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	t, err := d.Token()
	if err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	if t != json.Delim('{') {
		return errors.New("the header is not an object")
	}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return err
		}
		var v any
		if err := d.Decode(&v); err != nil {
			return err
		}
		s, ok := v.(string)
		if !ok {
			s = fmt.Sprint(v)
		}
		*h = append(*h, HeaderField{Key: k.(string), Value: s})
	}
	return nil
}

type jkfInitial struct {
	Preset string   `json:"preset"`
	Data   *jkfData `json:"data,omitempty"`
}

type jkfData struct {
	Color int               `json:"color"`
	Board [9][9]jkfPiece    `json:"board"`
	Hands [2]map[string]int `json:"hands"`
}

// jkfPiece is a board cell: {} when empty.
type jkfPiece struct {
	Color *int   `json:"color,omitempty"`
	Kind  string `json:"kind,omitempty"`
}

type jkfMove struct {
	Comments []string     `json:"comments,omitempty"`
	Move     *jkfMoveBody `json:"move,omitempty"`
	Time     *jkfTime     `json:"time,omitempty"`
	Special  string       `json:"special,omitempty"`
	Forks    [][]jkfMove  `json:"forks,omitempty"`
}

type jkfMoveBody struct {
	Color   int        `json:"color"`
	From    *jkfSquare `json:"from,omitempty"`
	To      jkfSquare  `json:"to"`
	Piece   string     `json:"piece"`
	Promote *bool      `json:"promote,omitempty"`
	Capture string     `json:"capture,omitempty"`
}

type jkfSquare struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type jkfTime struct {
	Now   *jkfClock `json:"now,omitempty"`
	Total *jkfClock `json:"total,omitempty"`
}

type jkfClock struct {
	H *int    `json:"h,omitempty"`
	M int     `json:"m"`
	S float64 `json:"s"`
}

// jkfKinds name the piece types.
var jkfKinds = [PieceTypeNB]string{Pawn: "FU", Lance: "KY", Knight: "KE", Silver: "GI", Gold: "KI", Bishop: "KA", Rook: "HI", King: "OU",
	ProPawn: "TO", ProLance: "NY", ProKnight: "NK", ProSilver: "NG", Horse: "UM", Dragon: "RY"}

func jkfKind(s string) (PieceType, bool) {
	for pt, k := range jkfKinds {
		if k == s && k != "" {
			return PieceType(pt), true
		}
	}
	return NoPieceType, false
}

// jkfPresets are the JKF presets of the handicaps (Handicaps names).
var jkfPresets = map[string]string{
	"HIRATE": "平手", "KY": "香落ち", "KY_R": "右香落ち", "KA": "角落ち", "HI": "飛車落ち", "HIKY": "飛香落ち",
	"2": "二枚落ち", "3": "三枚落ち", "4": "四枚落ち", "5": "五枚落ち", "5_L": "左五枚落ち", "6": "六枚落ち",
	"7_L": "左七枚落ち", "7_R": "右七枚落ち", "8": "八枚落ち", "10": "十枚落ち",
}

// JKFError reports a JKF record that cannot be read: the file, the
// move (0: not in the moves) and why.
type JKFError struct {
	File string
	Move int
	Err  error
}

func (e *JKFError) Error() string {
	where := e.File
	if where == "" {
		where = "JKF"
	}
	if e.Move > 0 {
		return fmt.Sprintf("kifu: %s: JKF move %d: %v", where, e.Move, e.Err)
	}
	return fmt.Sprintf("kifu: %s: JKF: %v", where, e.Err)
}

func (e *JKFError) Unwrap() error { return e.Err }

// ParseJKF reads a JKF record (file names it in errors). The moves are
// replayed: an illegal or inconsistent move is an error naming it.
func ParseJKF(file string, r io.Reader) (*Record, error) {
	var j jkfRecord
	d := json.NewDecoder(r)
	if err := d.Decode(&j); err != nil {
		return nil, &JKFError{File: file, Err: fmt.Errorf("not JSON Kifu Format: %w", err)}
	}
	rec := &Record{File: file, Format: FormatJKF, Header: j.Header, StartSFEN: StartSFEN}
	if in := j.Initial; in != nil {
		switch {
		case in.Preset == "OTHER" && in.Data != nil:
			sfen, err := jkfSFEN(in.Data)
			if err != nil {
				return nil, &JKFError{File: file, Err: err}
			}
			rec.StartSFEN = sfen
		case in.Preset == "OTHER":
			return nil, &JKFError{File: file, Err: errors.New(`initial preset "OTHER" without data`)}
		default:
			name, ok := jkfPresets[in.Preset]
			h, ok2 := LookupHandicap(name)
			if !ok || !ok2 {
				return nil, &JKFError{File: file, Err: fmt.Errorf("unknown initial preset %q", in.Preset)}
			}
			rec.StartSFEN = h.SFEN
		}
	}
	pos, err := ParseSFEN(rec.StartSFEN)
	if err != nil {
		return nil, &JKFError{File: file, Err: fmt.Errorf("the initial position: %w", err)}
	}
	rec.StartSFEN = pos.SFEN()
	moves := j.Moves
	if len(moves) > 0 && moves[0].Move == nil && moves[0].Special == "" {
		rec.StartComments = moves[0].Comments
		moves = moves[1:]
	}
	if err := jkfBranch(&rec.Main, pos, moves, 1); err != nil {
		var je *JKFError
		if errors.As(err, &je) {
			je.File = file
		}
		return nil, err
	}
	return rec, nil
}

// jkfSFEN returns the SFEN of an "OTHER" initial position.
func jkfSFEN(d *jkfData) (string, error) {
	var s setup
	for x := range 9 {
		for y := range 9 {
			c := d.Board[x][y]
			if c.Kind == "" {
				continue
			}
			pt, ok := jkfKind(c.Kind)
			if !ok || c.Color == nil || *c.Color < 0 || *c.Color > 1 {
				return "", fmt.Errorf("initial board (%d, %d): bad piece %q", x+1, y+1, c.Kind)
			}
			s.board[NewSquare(x+1, y+1)] = NewPiece(Color(*c.Color), pt)
		}
	}
	for c, h := range d.Hands {
		for k, n := range h {
			pt, ok := jkfKind(k)
			if !ok || pt > Gold || n < 0 || n > 18 {
				return "", fmt.Errorf("initial hand: bad %q: %d", k, n)
			}
			for range n {
				s.hands[c] = s.hands[c].Add(pt)
			}
		}
	}
	if d.Color != 0 && d.Color != 1 {
		return "", fmt.Errorf("initial color %d", d.Color)
	}
	s.side = Color(d.Color)
	return s.sfen(), nil
}

// jkfBranch reads moves into br from pos, ply being the number of the
// first move.
func jkfBranch(br *Branch, pos *Position, moves []jkfMove, ply int) error {
	pos = pos.Clone()
	for i, jm := range moves {
		n := ply + i
		if jm.Special != "" {
			w, ok := csaEndWords["%"+jm.Special]
			if ok {
				br.End = w.ending(jm.Special, pos.SideToMove())
			} else {
				br.End = unknownEnding(jm.Special)
			}
			br.End.Comments = jm.Comments
			br.End.Time = jm.Time.moveTime()
			if i != len(moves)-1 {
				return &JKFError{Move: n, Err: fmt.Errorf("moves after the terminal %q", jm.Special)}
			}
			return nil
		}
		if jm.Move == nil {
			return &JKFError{Move: n, Err: errors.New("neither a move nor a special")}
		}
		m, err := jkfToMove(pos, jm.Move)
		if err != nil {
			return &JKFError{Move: n, Err: err}
		}
		node := Node{Move: m, Comments: jm.Comments, Time: jm.Time.moveTime()}
		for _, f := range jm.Forks {
			v := &Branch{}
			if err := jkfBranch(v, pos, f, n); err != nil {
				return err
			}
			node.Variations = append(node.Variations, v)
		}
		br.Moves = append(br.Moves, node)
		pos.DoMove(m)
	}
	return nil
}

func jkfToMove(pos *Position, b *jkfMoveBody) (Move, error) {
	if b.To.X < 1 || b.To.X > 9 || b.To.Y < 1 || b.To.Y > 9 {
		return MoveNone, fmt.Errorf("bad destination (%d, %d)", b.To.X, b.To.Y)
	}
	to := NewSquare(b.To.X, b.To.Y)
	pt, ok := jkfKind(b.Piece)
	if !ok {
		return MoveNone, fmt.Errorf("unknown piece %q", b.Piece)
	}
	var usi string
	if b.From == nil {
		letter := map[PieceType]string{Pawn: "P", Lance: "L", Knight: "N", Silver: "S", Gold: "G", Bishop: "B", Rook: "R"}[pt]
		if letter == "" {
			return MoveNone, fmt.Errorf("a drop of %s", b.Piece)
		}
		usi = letter + "*" + to.String()
	} else {
		if b.From.X < 1 || b.From.X > 9 || b.From.Y < 1 || b.From.Y > 9 {
			return MoveNone, fmt.Errorf("bad origin (%d, %d)", b.From.X, b.From.Y)
		}
		from := NewSquare(b.From.X, b.From.Y)
		usi = from.String() + to.String()
		if b.Promote != nil && *b.Promote {
			usi += "+"
		}
	}
	m, err := pos.ParseUSIMove(usi)
	if err != nil {
		return MoveNone, err
	}
	if got := m.Piece().Type(); got != pt {
		return MoveNone, fmt.Errorf("%s moves %s, the move says %s", usi, jkfKinds[got], b.Piece)
	}
	if b.Color != int(pos.SideToMove()) {
		return MoveNone, fmt.Errorf("color %d, but %s is to move", b.Color, pos.SideToMove())
	}
	return m, nil
}

func (t *jkfTime) moveTime() MoveTime {
	var mt MoveTime
	if t == nil {
		return mt
	}
	if t.Now != nil {
		mt.Spent, mt.HasSpent = t.Now.duration(), true
	}
	if t.Total != nil {
		mt.Total, mt.HasTotal = t.Total.duration(), true
	}
	return mt
}

func (c *jkfClock) duration() time.Duration {
	h := 0
	if c.H != nil {
		h = *c.H
	}
	return time.Duration(h)*time.Hour + time.Duration(c.M)*time.Minute + time.Duration(math.Round(c.S*1000))*time.Millisecond
}

func clockOf(d time.Duration, withHours bool) *jkfClock {
	s := int64(d / time.Second)
	c := &jkfClock{M: int(s / 60), S: float64(s % 60)}
	if withHours {
		h := c.M / 60
		c.H, c.M = &h, c.M%60
	}
	return c
}

// WriteJKF writes r as JKF (UTF-8 JSON, indented): its header in order,
// the start position as a preset or an "OTHER" board, the main line with
// its variations as forks, comments, times in whole seconds and the
// terminal when JKF has a word for it.
func WriteJKF(w io.Writer, r *Record) error {
	pos, err := r.StartPosition()
	if err != nil {
		return err
	}
	j := jkfRecord{Header: jkfHeader(r.Header)}
	if j.Header == nil {
		j.Header = jkfHeader{}
	}
	if r.StartSFEN != StartSFEN {
		j.Initial = jkfInitialOf(pos, r.StartSFEN)
	}
	j.Moves = append([]jkfMove{{Comments: r.StartComments}}, jkfMovesOf(pos, &r.Main)...)
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return fmt.Errorf("kifu: writing JKF: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func jkfInitialOf(pos *Position, sfen string) *jkfInitial {
	if name := HandicapName(sfen); name != "" {
		for preset, n := range jkfPresets {
			if n == name {
				return &jkfInitial{Preset: preset}
			}
		}
	}
	d := &jkfData{Color: int(pos.SideToMove())}
	for x := range 9 {
		for y := range 9 {
			pc := pos.board[NewSquare(x+1, y+1)]
			if pc != NoPiece {
				c := int(pc.Color())
				d.Board[x][y] = jkfPiece{Color: &c, Kind: jkfKinds[pc.Type()]}
			}
		}
	}
	for c := range 2 {
		d.Hands[c] = map[string]int{}
		for pt := Pawn; pt <= Gold; pt++ {
			d.Hands[c][jkfKinds[pt]] = pos.hands[c].Count(pt)
		}
	}
	return &jkfInitial{Preset: "OTHER", Data: d}
}

func jkfMovesOf(pos *Position, br *Branch) []jkfMove {
	pos = pos.Clone()
	out := []jkfMove{}
	for i := range br.Moves {
		n := &br.Moves[i]
		m := n.Move
		body := &jkfMoveBody{Color: int(pos.SideToMove()), To: jkfSquare{m.To().File(), m.To().Rank()}, Piece: jkfKinds[m.Piece().Type()]}
		if !m.IsDrop() {
			body.From = &jkfSquare{m.From().File(), m.From().Rank()}
			if cap := m.Captured(); cap != NoPiece {
				body.Capture = jkfKinds[cap.Type()]
			}
			if p := m.IsPromotion(); p || canPromote(m) {
				body.Promote = &p
			}
		}
		jm := jkfMove{Move: body, Comments: n.Comments, Time: jkfTimeOf(n.Time)}
		for _, v := range n.Variations {
			jm.Forks = append(jm.Forks, jkfMovesOf(pos, v))
		}
		out = append(out, jm)
		pos.DoMove(m)
	}
	e := &br.End
	if w, ok := csaEndWord(e, pos.SideToMove()); ok && e.Kind != EndNone {
		out = append(out, jkfMove{Special: strings.TrimPrefix(w, "%"), Comments: e.Comments, Time: jkfTimeOf(e.Time)})
	}
	return out
}

// canPromote says whether the board move m could have promoted.
func canPromote(m Move) bool {
	pt := m.Piece().Type()
	if pt == NoPieceType || pt == Gold || pt >= King {
		return false
	}
	in := func(s Square) bool {
		if m.Piece().Color() == Black {
			return s.Rank() <= 3
		}
		return s.Rank() >= 7
	}
	return in(m.From()) || in(m.To())
}

func jkfTimeOf(t MoveTime) *jkfTime {
	if !t.HasSpent && !t.HasTotal {
		return nil
	}
	jt := &jkfTime{}
	if t.HasSpent {
		jt.Now = clockOf(t.Spent, false)
	}
	if t.HasTotal {
		jt.Total = clockOf(t.Total, true)
	}
	return jt
}
