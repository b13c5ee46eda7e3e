package kifu

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Format is a game-record format.
type Format uint8

// Record formats.
const (
	FormatUnknown Format = iota
	FormatKIF            // 柿木形式 (.kif, .kifu)
	FormatKI2            // KI2, newspaper notation (.ki2, .ki2u)
	FormatCSA            // CSA standard record (.csa), V1 to V3.0
	FormatSFEN           // one game per line: "startpos moves ..." or "sfen ... moves ..."
	FormatJKF            // JSON Kifu Format (.jkf): Kifu for JS, tsshogi, ShogiHome
)

var formatNames = [...]string{"unknown", "kif", "ki2", "csa", "sfen", "jkf"}

// String returns the lower-case name of the format ("kif", "ki2", "csa",
// "sfen", "jkf").
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "unknown"
}

// LookupFormat returns the format named s ("kif", "ki2", "csa", "sfen", "jkf";
// case-insensitive).
func LookupFormat(s string) (Format, bool) {
	for f, n := range formatNames {
		if f != 0 && strings.EqualFold(n, s) {
			return Format(f), true
		}
	}
	return FormatUnknown, false
}

// Record is one game record (棋譜): metadata, the start position, the main
// line with its per-move times and comments, variations (変化) as a tree,
// and how the game ended.
//
// A Record returned by a parser holds only legal moves. If the main line
// of the source contains a move that is illegal or cannot be resolved,
// Main holds the moves before it and ReplayErr says where and why. A line
// of play ends at the move that makes a position occur for the fourth
// time (千日手, fourfold repetition): its ending is a draw, or a loss for
// the side that gave perpetual check (EndIllegal), and the moves the
// source gives after it are skipped with a warning (Warnings).
type Record struct {
	// File names the input in errors; Index is the position of the game in
	// a file holding several (CSA "/" separators, SFEN lists), from 0.
	File  string
	Index int
	// Format is the format the record was read from.
	Format Format
	// Header is every metadata line in source order. Keys are the KIF
	// names (先手, 後手, 棋戦, 場所, 開始日時, 終了日時, 戦型, ...) for the
	// metadata both formats know; CSA reading maps N+, N-, $EVENT,
	// $SITE, $START_TIME, $END_TIME and $OPENING to them and keeps other
	// CSA keys as "$KEY". The start position is not a header: 手合割 is
	// read into StartSFEN (see Handicap).
	Header []HeaderField
	// StartSFEN is the position before the first move.
	StartSFEN string
	// StartComments are the comments given before the first move.
	StartComments []string
	// Main is the line of play as played, with its ending.
	Main Branch
	// ReplayErr is set when the main line of the source stops at a move
	// that is illegal or cannot be resolved; Main holds the legal prefix.
	ReplayErr *ReplayError
	// Warnings lists what the reader skipped or read in spite of
	// something odd, in source order: a line it does not understand, the
	// moves after a fourfold repetition (千日手) had ended the game.
	Warnings []Warning
}

// Warning is something a reader skipped or read in spite of something
// odd: where (the record's File, Line), what was found (Text) and why.
type Warning struct {
	File   string
	Line   int // 1-based; 0 if unknown
	Text   string
	Reason string
}

// String returns "kifu: file:line: reason (found text)".
func (w Warning) String() string {
	return "kifu: " + fileLine(w.File, w.Line) + ": " + w.Message()
}

// Message returns the reason and the text found, without the file and
// line: "reason (found text)".
func (w Warning) Message() string {
	if w.Text == "" {
		return w.Reason
	}
	return w.Reason + " (found " + quoteRunes(w.Text) + ")"
}

// Header keys of the metadata that KIF and CSA both carry (KIF names; the
// CSA key each is read from and written to is given).
const (
	KeyBlack     = "先手"   // N+ (下手 in KIF handicap games; see Player)
	KeyWhite     = "後手"   // N- (上手 in KIF handicap games)
	KeyEvent     = "棋戦"   // $EVENT
	KeySite      = "場所"   // $SITE
	KeyStartTime = "開始日時" // $START_TIME
	KeyEndTime   = "終了日時" // $END_TIME
	KeyOpening   = "戦型"   // $OPENING
	KeyTimeLimit = "持ち時間" // KIF prose; CSA's $TIME_LIMIT and $TIME are kept under their own keys
)

// HeaderField is one metadata line: a key and its value.
type HeaderField struct {
	Key, Value string
}

// Branch is a line of play: consecutive moves from a position, and how the
// line ends.
type Branch struct {
	Moves []Node
	End   Ending
}

// Node is one move of a line with its annotations.
type Node struct {
	Move     Move
	Time     MoveTime
	Comments []string
	Bookmark string // しおり (KIF "&")
	// Score is the engine score a CSA record gives with the move (its
	// "'**" comment, which Comments also holds).
	Score Score
	// Variations are alternatives to this move (変化): each line starts
	// from the position before this move.
	Variations []*Branch
}

// MoveTime is the clock information of a move: the time spent on it and
// the mover's cumulative time (KIF only). Each part may be absent.
type MoveTime struct {
	Spent, Total       time.Duration
	HasSpent, HasTotal bool
}

// Get returns the value of the first header with the given key, or "".
func (r *Record) Get(key string) string {
	for _, h := range r.Header {
		if h.Key == key {
			return h.Value
		}
	}
	return ""
}

// Set replaces the value of the first header with the given key, or
// appends the header.
func (r *Record) Set(key, value string) {
	for i := range r.Header {
		if r.Header[i].Key == key {
			r.Header[i].Value = value
			return
		}
	}
	r.Header = append(r.Header, HeaderField{key, value})
}

// Player returns the name of the player of color c: the 先手/後手 header
// (下手/上手 in handicap games, whichever is present).
func (r *Record) Player(c Color) string {
	keys := [2][2]string{{"先手", "下手"}, {"後手", "上手"}}[c]
	for _, h := range r.Header {
		if h.Key == keys[0] || h.Key == keys[1] {
			return h.Value
		}
	}
	return ""
}

// TimeControl returns the time control as the record states it: the KIF
// 持ち時間 (with 秒読み), or CSA's $TIME_LIMIT or $TIME, or "".
func (r *Record) TimeControl() string {
	if v := r.Get(KeyTimeLimit); v != "" {
		if b := r.Get("秒読み"); b != "" {
			v += " 秒読み" + b
		}
		return v
	}
	for _, k := range []string{"$TIME_LIMIT", "$TIME"} {
		if v := r.Get(k); v != "" {
			return v
		}
	}
	return ""
}

// Handicap returns the name of the start position (手合割) if it is the
// even-game position (平手) or one of the standard handicaps, else "".
func (r *Record) Handicap() string {
	return HandicapName(r.StartSFEN)
}

// Result returns the outcome of the game as recorded by its main line.
func (r *Record) Result() Result { return r.Main.End.Result }

// WriteRecord writes records in format f (KIF and KI2 take exactly one;
// CSA is written as V2.2; JKF takes exactly one).
func WriteRecord(w io.Writer, f Format, recs ...*Record) error {
	switch f {
	case FormatKIF, FormatKI2:
		if len(recs) != 1 {
			return fmt.Errorf("kifu: %s holds one record, got %d", f, len(recs))
		}
		if f == FormatKIF {
			return WriteKIF(w, recs[0])
		}
		return WriteKI2(w, recs[0])
	case FormatCSA:
		return WriteCSA(w, CSAV22, recs...)
	case FormatSFEN:
		return WriteSFENMoves(w, recs...)
	case FormatJKF:
		if len(recs) != 1 {
			return fmt.Errorf("kifu: %s holds one record, got %d", f, len(recs))
		}
		return WriteJKF(w, recs[0])
	}
	return fmt.Errorf("kifu: cannot write format %s", f)
}
