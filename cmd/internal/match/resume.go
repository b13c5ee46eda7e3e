package match

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
)

// recordName is the file of game index i in the records folder.
func recordName(i int) string { return fmt.Sprintf("game-%04d.csa", i+1) }

// checkFreshRecords refuses a records folder that already holds a record
// of this match's schedule: without Config.Resume it would be
// overwritten.
func checkFreshRecords(dir string, jobs []job) error {
	for _, j := range jobs {
		path := filepath.Join(dir, recordName(j.index))
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("match: %s already holds game records (%s): resume the match (--resume) or give another records folder", dir, path)
		}
	}
	return nil
}

// resumedGame reads back the record of job j from the records folder: the
// finished game it holds, or nil if there is no record or the game was
// not finished (interrupted, or written by a runner that did not say how
// it ended), so that it is played again. A record of another match (other
// engines, colours or opening) is an error.
func (r *runner) resumedGame(j job) (*GameResult, error) {
	path := filepath.Join(r.cfg.RecordsDir, recordName(j.index))
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("match: resume: %w", err)
	}
	recs, err := kifu.ParseRecords(path, string(b))
	if err != nil || len(recs) != 1 {
		// A record cut short by a kill is replayed, not trusted.
		return nil, nil
	}
	rec := recs[0]
	term, result, reason, ok := parseTermination(rec.StartComments)
	if !ok || term == TermInterrupted {
		return nil, nil
	}
	bad := func(why string, a ...any) error {
		return fmt.Errorf("match: resume: %s: %s: the records folder holds another match (engines, openings or their order differ)", path, fmt.Sprintf(why, a...))
	}
	names := [2]string{r.cfg.Engines[j.black].Name, r.cfg.Engines[1-j.black].Name}
	if got := rec.Get(kifu.KeyBlack); got != names[kifu.Black] {
		return nil, bad("Black is %q, the schedule says %q", got, names[kifu.Black])
	}
	if got := rec.Get(kifu.KeyWhite); got != names[kifu.White] {
		return nil, bad("White is %q, the schedule says %q", got, names[kifu.White])
	}
	op := &r.cfg.Openings[j.opening]
	want, err := kifu.ParseSFEN(op.StartSFEN)
	if err != nil {
		return nil, bad("%v", err)
	}
	start, err := rec.StartPosition()
	if err != nil || start.Key() != want.Key() || start.SideToMove() != want.SideToMove() || len(rec.Main.Moves) < len(op.Moves) {
		return nil, bad("the game does not start from opening %d", j.opening+1)
	}
	for i, m := range op.Moves {
		if rec.Main.Moves[i].Move != m {
			return nil, bad("move %d is not opening %d's", i+1, j.opening+1)
		}
	}
	g := &GameResult{Index: j.index, Opening: j.opening, Round: j.round, Black: j.black, White: 1 - j.black,
		Result: result, Termination: term, Reason: reason, Plies: len(rec.Main.Moves) - len(op.Moves),
		Record: rec, File: path, Resumed: true}
	side := want.SideToMove() // after the opening's moves
	if len(op.Moves)%2 == 1 {
		side = side.Opp()
	}
	eng := [2]int{j.black, 1 - j.black}
	for _, nd := range rec.Main.Moves[len(op.Moves):] {
		if nd.Time.HasSpent {
			g.addStat(eng[side], nd.Time.Spent, nodesOf(nd.Comments))
		}
		side = side.Opp()
	}
	if e := rec.Main.End; e.Time.HasSpent {
		g.addStat(eng[side], e.Time.Spent, 0)
	}
	return g, nil
}

// parseTermination finds the runner's termination comment.
func parseTermination(comments []string) (Termination, kifu.Result, string, bool) {
	for _, c := range comments {
		rest, ok := strings.CutPrefix(c, terminationComment)
		if !ok {
			continue
		}
		head, reason, _ := strings.Cut(rest, ": ")
		t, res, ok := strings.Cut(head, " ")
		if !ok {
			return "", 0, "", false
		}
		var result kifu.Result
		switch res {
		case kifu.BlackWin.String():
			result = kifu.BlackWin
		case kifu.WhiteWin.String():
			result = kifu.WhiteWin
		case kifu.Draw.String():
			result = kifu.Draw
		case kifu.NoResult.String():
			result = kifu.NoResult
		default:
			return "", 0, "", false
		}
		return Termination(t), result, reason, true
	}
	return "", 0, "", false
}

// nodesOf reads the nodes comment of a move (0 if none).
func nodesOf(comments []string) uint64 {
	for _, c := range comments {
		if rest, ok := strings.CutPrefix(c, nodesComment); ok {
			var n uint64
			if _, err := fmt.Sscan(rest, &n); err == nil {
				return n
			}
		}
	}
	return 0
}
