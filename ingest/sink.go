package ingest

import (
	"errors"
	"fmt"

	"github.com/rpshogi/rpshogi/kifu"
)

// Game is one distinct game accepted by Run: replayed, not filtered out,
// and the first of its digest in the run.
type Game struct {
	// Seq is the walk-order number of the input holding the game and
	// Index the position of the game in it (from 0); (Seq, Index) is the
	// order in which games reach the Sink.
	Seq, Index int
	// Source names the input: a path, "archive.zip!member", or "-".
	Source   string
	Format   kifu.Format
	Encoding kifu.Encoding
	// Record is the game as read and replayed: its main line holds only
	// legal moves and Record.ReplayErr is nil (see Partial).
	Record *kifu.Record
	// Digest identifies the game: see GameDigest.
	Digest string
	// Moves is the main line in USI, space-separated; Plies the number of
	// moves.
	Moves string
	Plies int
	// Date is the 開始日時 header as yyyy-mm-dd, or "" if the record has
	// none that ParseDate reads.
	Date string
	// Handicap is the 手合割 name of the start position (平手, 香落ち, ...),
	// or "other" for a start position that is not a standard one.
	Handicap string

	// ID and Known are set by a Sink that stores games (Store): ID is
	// the game's row id, and Known is true when the game was already in
	// the database before this run. Sinks after the store in a Tee see
	// them; Run counts Known games in Report.AlreadyStored.
	ID    int64
	Known bool

	// Partial, with Options.Partial, is the illegal or unreadable move
	// at which the source's main line stopped: Record holds the legal
	// moves before it and its ending is EndIllegal. It is nil for a
	// whole game.
	Partial *kifu.ReplayError

	// Processed is what Options.Process returned for the game (nil
	// without Process).
	Processed any
}

// HandicapOther is Game.Handicap for a start position that is neither the
// even game nor a standard handicap (a board diagram, a tsume position).
const HandicapOther = "other"

// Duplicate is a game whose digest equals that of a game accepted earlier
// in the same run (the same game in another file or format, or twice in
// one file).
type Duplicate struct {
	Seq, Index int
	Source     string
	Digest     string
	// OfSeq and OfIndex are the accepted game it repeats: the Seq and
	// Index of the Game passed to the Sink before it (whose Source names
	// the input). Run keeps no input's name for this, so its memory does
	// not grow with the names of a collection's files.
	OfSeq, OfIndex int
}

// RejectKind classifies why a record could not be used.
type RejectKind string

// Reject kinds.
const (
	RejectRead     RejectKind = "read"     // the input could not be read (I/O error, corrupt archive member)
	RejectEmpty    RejectKind = "empty"    // an empty file (no bytes, or only blank lines)
	RejectDecode   RejectKind = "decode"   // bytes that are not text in a known encoding
	RejectParse    RejectKind = "parse"    // text that is not a record in a known format
	RejectReplay   RejectKind = "replay"   // the main line stops at an illegal or unresolvable move
	RejectNoGame   RejectKind = "no-game"  // a file that parses but holds no record
	RejectNoMoves  RejectKind = "no-moves" // a record with a start position and no move
	RejectInternal RejectKind = "internal" // a bug in the reader (a panic, recovered)
	RejectProcess  RejectKind = "process"  // Options.Process failed on the game (an error or a panic)
	RejectLimit    RejectKind = "limit"    // the input exceeds a bound of Limits (size, line length, nesting, decompressed bytes)
)

// Reject is a record that could not be used, with where and why. A file
// that cannot be read, decoded or parsed at all is one Reject with Index 0;
// a file whose games are read until a syntax error has a Reject for the
// rest, with the Index after its last game.
type Reject struct {
	Seq    int        `json:"-"`
	Source string     `json:"source"`
	Index  int        `json:"index"`
	Line   int        `json:"line,omitempty"` // 1-based; 0 when no line is meaningful (an unreadable archive member)
	Kind   RejectKind `json:"kind"`
	// Reason says what is wrong, without the file and line (which are in
	// Source and Line).
	Reason string `json:"reason"`
	// Err is the error as returned by the reader (a *kifu.ParseError, a
	// *kifu.ReplayError, an I/O error), if any.
	Err error `json:"-"`
}

// String returns "source:line: reason", the source quoted and the
// reason escaped if they hold control characters (see Report.WriteText).
func (r *Reject) String() string {
	return fmt.Sprintf("%s: %s", fileLine(r.Source, r.Line), escapeText(r.Reason))
}

// Warning is something odd in a record that was still used: an encoding
// declaration that disagrees with the bytes, a broken variation (変化), a
// date header that cannot be read.
type Warning struct {
	Source string `json:"source"`
	Index  int    `json:"index"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// String returns "source:line: reason", the source quoted and the
// reason escaped if they hold control characters.
func (w *Warning) String() string {
	return fmt.Sprintf("%s: %s", fileLine(w.Source, w.Line), escapeText(w.Reason))
}

// fileLine returns "file:line", the name quoted if it holds control
// characters (quoteName).
func fileLine(file string, line int) string {
	file = quoteName(file)
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

// Sink receives the outcome of every record of a run, in the
// deterministic order (input Seq, then record Index), from a single
// goroutine (Run's collector): accepted games, duplicates and rejects.
// Filtered records are only counted in the Report.
//
// A Sink must not keep what it does not need: Run keeps no game, so
// memory stays flat however many games stream through. An error returned
// by a Sink stops the run, and Run returns it.
//
// Sinks are combined with Tee: the store (Store) first, then a consumer
// that needs the game's row id (g.ID) and whether it was already stored
// (g.Known), so that one pass and one transaction feed both.
type Sink interface {
	Game(g *Game) error
	Duplicate(d *Duplicate) error
	Reject(r *Reject) error
}

// Funcs is a Sink made of functions; a nil function ignores its events.
type Funcs struct {
	GameFunc      func(*Game) error
	DuplicateFunc func(*Duplicate) error
	RejectFunc    func(*Reject) error
}

// Game calls GameFunc.
func (f Funcs) Game(g *Game) error {
	if f.GameFunc == nil {
		return nil
	}
	return f.GameFunc(g)
}

// Duplicate calls DuplicateFunc.
func (f Funcs) Duplicate(d *Duplicate) error {
	if f.DuplicateFunc == nil {
		return nil
	}
	return f.DuplicateFunc(d)
}

// Reject calls RejectFunc.
func (f Funcs) Reject(r *Reject) error {
	if f.RejectFunc == nil {
		return nil
	}
	return f.RejectFunc(r)
}

// Discard is a Sink that ignores everything (Run then only counts).
var Discard Sink = Funcs{}

// Tee returns a Sink that passes every event to each sink in turn, in
// the order given, stopping at the first error. A later sink sees what
// an earlier one set on the Game (ID, Known).
func Tee(sinks ...Sink) Sink { return tee(sinks) }

type tee []Sink

func (t tee) Game(g *Game) error {
	for _, s := range t {
		if err := s.Game(g); err != nil {
			return err
		}
	}
	return nil
}

func (t tee) Duplicate(d *Duplicate) error {
	for _, s := range t {
		if err := s.Duplicate(d); err != nil {
			return err
		}
	}
	return nil
}

func (t tee) Reject(r *Reject) error {
	for _, s := range t {
		if err := s.Reject(r); err != nil {
			return err
		}
	}
	return nil
}

// errSinkNil is returned by Run when given a nil Sink.
var errSinkNil = errors.New("ingest: nil Sink (use ingest.Discard to only count)")
