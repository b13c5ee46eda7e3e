package kifu

import (
	"math"
	"strconv"
	"strings"
)

// Score is the evaluation an engine gave with one of its moves, as
// floodgate's CSA records carry it: the comment line after the move
// "'** <score> <pv...>", the score in the engine's centipawns from
// Black's point of view whoever moved (a Black win is positive on both
// sides' lines), followed by the line of play the engine expected from
// the position after the move. OK is false for a move given without one.
type Score struct {
	Value int32
	OK    bool
}

// ScoreCommentPrefix starts the comment text (Node.Comments) of a score:
// the CSA line "'** 54 -3334FU" is the comment "* 54 -3334FU".
const ScoreCommentPrefix = "* "

// parseScoreComment reads the comment text of a CSA "'**" line. It
// returns ok false when the comment is not a score line (not "* " then a
// word), and err non-empty when it is one whose score is not an integer
// of 32 bits.
func parseScoreComment(c string) (v int32, ok bool, err string) {
	rest, found := strings.CutPrefix(c, ScoreCommentPrefix)
	if !found {
		return 0, false, ""
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return 0, false, ""
	}
	n, e := strconv.ParseInt(f[0], 10, 64)
	if e != nil {
		return 0, true, "an engine score ('** <score> <pv...>) that is not an integer; the move is kept without its score"
	}
	if n > math.MaxInt32 || n < math.MinInt32 {
		return 0, true, "an engine score ('** <score> <pv...>) out of range (32 bits); the move is kept without its score"
	}
	return int32(n), true, ""
}

// ScoreComment returns the comment that carries score v (Black's point of
// view) with move m, played in p, and the line pv expected after it, for
// Node.Comments: a CSA writer writes it as "'** <v> <pv in CSA>". p is
// not changed; the pv stops at its first move that is not legal.
func ScoreComment(p *Position, m Move, v int32, pv []Move) string {
	var b strings.Builder
	b.WriteString(ScoreCommentPrefix)
	b.WriteString(strconv.FormatInt(int64(v), 10))
	if len(pv) > 0 {
		q := p.Clone()
		q.DoMove(m)
		for _, pm := range pv {
			if ok, _ := q.IsLegal(pm); !ok {
				break
			}
			b.WriteString(" " + csaMove(q, pm))
			q.DoMove(pm)
		}
	}
	return b.String()
}
