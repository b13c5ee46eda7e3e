package kifu

import (
	"errors"
	"fmt"
)

// Sentinel errors, wrapped by the typed errors below.
var (
	// ErrSFEN is wrapped by every SFEN error.
	ErrSFEN = errors.New("invalid SFEN")
	// ErrMoveSyntax is wrapped by errors about move text that cannot be read.
	ErrMoveSyntax = errors.New("invalid move text")
	// ErrIllegalMove is wrapped by IllegalMoveError.
	ErrIllegalMove = errors.New("illegal move")
)

// SFENError reports an SFEN string that cannot be read or describes an
// impossible position.
type SFENError struct {
	SFEN   string
	Reason string
}

func (e *SFENError) Error() string {
	return fmt.Sprintf("kifu: invalid SFEN %q: %s", e.SFEN, e.Reason)
}

func (e *SFENError) Unwrap() error { return ErrSFEN }

// MoveSyntaxError reports move text that cannot be read.
type MoveSyntaxError struct {
	Text   string
	Reason string
}

func (e *MoveSyntaxError) Error() string {
	return fmt.Sprintf("kifu: cannot read move %q: %s", e.Text, e.Reason)
}

func (e *MoveSyntaxError) Unwrap() error { return ErrMoveSyntax }

// IllegalMoveKind says which rule a move breaks.
type IllegalMoveKind uint8

// Illegal move kinds. LegalMove (the zero value) means no rule is broken.
const (
	LegalMove            IllegalMoveKind = iota
	IllegalNoPiece                       // no piece on the origin square
	IllegalNotOwnPiece                   // the piece on the origin belongs to the opponent
	IllegalPieceMismatch                 // the move names another piece than the one on the origin
	IllegalUnreachable                   // the piece cannot move there (wrong direction, blocked)
	IllegalCaptureOwn                    // the destination holds one of the mover's pieces
	IllegalCannotPromote                 // promotion of a piece that cannot promote, or outside the zone
	IllegalDeadPiece                     // a piece left with no further move (行き所のない駒)
	IllegalNotInHand                     // dropping a piece that is not in hand
	IllegalDropOccupied                  // dropping onto an occupied square
	IllegalNifu                          // a second unpromoted pawn on a file (二歩)
	IllegalUchifuzume                    // checkmate by a pawn drop (打ち歩詰め)
	IllegalIgnoresCheck                  // the mover was in check and still is
	IllegalSelfCheck                     // the move exposes or moves the own king into check
	IllegalNoMove                        // not a move (none or null)
)

var illegalMoveKindText = [...]string{
	LegalMove:            "legal",
	IllegalNoPiece:       "no piece on the origin square",
	IllegalNotOwnPiece:   "the piece on the origin square belongs to the opponent",
	IllegalPieceMismatch: "the piece on the origin square is not the piece named",
	IllegalUnreachable:   "the piece cannot reach the destination",
	IllegalCaptureOwn:    "the destination holds the mover's own piece",
	IllegalCannotPromote: "the piece cannot promote on this move",
	IllegalDeadPiece:     "the piece would have no further move (行き所のない駒)",
	IllegalNotInHand:     "the piece is not in hand",
	IllegalDropOccupied:  "drop onto an occupied square",
	IllegalNifu:          "two unpromoted pawns on one file (二歩)",
	IllegalUchifuzume:    "checkmate by pawn drop (打ち歩詰め)",
	IllegalIgnoresCheck:  "the king is left in check",
	IllegalSelfCheck:     "the move puts the own king in check",
	IllegalNoMove:        "not a move",
}

func (k IllegalMoveKind) String() string {
	if int(k) < len(illegalMoveKindText) {
		return illegalMoveKindText[k]
	}
	return fmt.Sprintf("IllegalMoveKind(%d)", uint8(k))
}

// IllegalMoveError reports a move that breaks a rule in a position.
type IllegalMoveError struct {
	Move Move
	Kind IllegalMoveKind
	SFEN string // the position the move was tried in
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("kifu: illegal move %s: %s (position %s)", e.Move, e.Kind, e.SFEN)
}

func (e *IllegalMoveError) Unwrap() error { return ErrIllegalMove }
