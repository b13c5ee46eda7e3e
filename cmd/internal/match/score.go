package match

import (
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
)

// mateScore is the magnitude of a mate score in the records: "score mate
// N" becomes ±(mateScore − |N|) centipawns, as the engine's own mate
// scores (engine/eval.MateValue), so that self-play and match records
// give a mate the same label.
const mateScore = 32000

// infoScore is the score of an "info" line: the mover's score in
// centipawns from its own point of view, and the line of play it gives
// (USI moves, the first the move it will play).
type infoScore struct {
	cp int32
	pv []string
	ok bool
}

// parseInfoScore reads the score and pv of an "info ... score cp|mate X
// ... pv M..." line; ok is false when the line is not an info line with a
// score. "mate +" and "mate -" (no count) are mates at an unknown
// distance. An "info string" line has no score whatever it says.
func parseInfoScore(line string) infoScore {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" {
		return infoScore{}
	}
	var s infoScore
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "string":
			return infoScore{}
		case "score":
			if i+2 >= len(f) {
				return infoScore{}
			}
			v, ok := scoreValue(f[i+1], f[i+2])
			if !ok {
				return infoScore{}
			}
			s.cp, s.ok = v, true
			i += 2
		case "pv":
			if !s.ok {
				return infoScore{}
			}
			s.pv = f[i+1:]
			return s
		}
	}
	return s
}

// scoreValue converts a USI score ("cp" or "mate" and its value) to
// centipawns.
func scoreValue(kind, val string) (int32, bool) {
	switch kind {
	case "cp":
		n, err := strconv.ParseInt(val, 10, 32)
		if err != nil {
			return 0, false
		}
		return int32(max(min(n, mateScore), -mateScore)), true
	case "mate":
		switch val {
		case "+":
			return mateScore, true
		case "-":
			return -mateScore, true
		}
		n, err := strconv.ParseInt(val, 10, 32)
		if err != nil {
			return 0, false
		}
		plies := min(max(n, -n), mateScore)
		if n < 0 || val[0] == '-' {
			return -(mateScore - int32(plies)), true
		}
		return mateScore - int32(plies), true
	}
	return 0, false
}

// scoreComment returns the record's comment for the move m the mover
// played in p with score s ("'** <score> <pv>" in CSA, floodgate's
// convention: Black's point of view, the line after the move), and false
// when s has no score. The pv is kept only when it starts with m, and up
// to its first move that is not legal.
func scoreComment(p *kifu.Position, m kifu.Move, s infoScore) (string, kifu.Score, bool) {
	if !s.ok {
		return "", kifu.Score{}, false
	}
	v := s.cp
	if p.SideToMove() == kifu.White {
		v = -v
	}
	var pv []kifu.Move
	if len(s.pv) > 1 && s.pv[0] == m.USI() {
		q := p.Clone()
		q.DoMove(m)
		for _, w := range s.pv[1:] {
			pm, err := q.ParseUSIMove(w)
			if err != nil {
				break
			}
			pv = append(pv, pm)
			q.DoMove(pm)
		}
	}
	return kifu.ScoreComment(p, m, v, pv), kifu.Score{Value: v, OK: true}, true
}
