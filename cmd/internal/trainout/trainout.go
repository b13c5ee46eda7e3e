// Package trainout writes the result of a training run (train.Result) as
// "rpshogi train" prints it: a text summary after the ingest report, or
// one JSON document.
package trainout

import (
	"cmp"
	"fmt"
	"io"
	"time"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/train"
)

// JSON is the JSON document of a run into the database DB.
type JSON struct {
	DB           string            `json:"db"`
	Run          int64             `json:"run"`
	GamesAdded   int64             `json:"games_added"`
	Positions    int64             `json:"positions_added"`
	Forced       int64             `json:"forced_added"`
	TotalGames   int64             `json:"total_games"`
	TotalPos     int64             `json:"total_positions"`
	TotalForced  int64             `json:"total_forced"`
	Uncounted    int64             `json:"uncounted_games"`
	CorpusDigest string            `json:"corpus_digest"`
	Seconds      float64           `json:"elapsed_seconds"`
	Database     ingest.StoreStats `json:"database"`
	Report       *ingest.Report    `json:"report"`
}

// NewJSON returns the JSON document of res, a run into db.
func NewJSON(db string, res *train.Result) JSON {
	return JSON{DB: db, Run: res.RunID, GamesAdded: res.Games, Positions: res.Added.Positions,
		Forced: res.Added.Forced, TotalGames: res.TotalGames, TotalPos: res.Total.Positions, TotalForced: res.Total.Forced,
		Uncounted: res.Uncounted, CorpusDigest: res.CorpusDigest, Seconds: res.Elapsed.Seconds(), Database: res.Store, Report: res.Report}
}

// WriteSummary writes the ingest report of res, then what the run into
// db counted and the database's totals, where the Arrow files went (if
// arrowDir is not ""), the top most probable categories (if top > 0) and
// the time taken.
func WriteSummary(w io.Writer, res *train.Result, db, arrowDir string, top int) error {
	if err := res.Report.WriteText(w); err != nil {
		return err
	}
	fmt.Fprintf(w, "\ntraining run %d into %s\n", res.RunID, db)
	fmt.Fprintf(w, "%-16s %10d (%d new in the database, %d stored before without counts)\n", "games counted", res.Games,
		res.Store.GamesAdded, res.Games-int64(res.Store.GamesAdded))
	fmt.Fprintf(w, "%-16s %10d\n", "positions", res.Added.Positions)
	fmt.Fprintf(w, "%-16s %10d (a single legal move)\n", "forced", res.Added.Forced)
	fmt.Fprintf(w, "%-16s %10d games, %d positions, %d forced; corpus digest %s\n", "database total", res.TotalGames,
		res.Total.Positions, res.Total.Forced, cmp.Or(res.CorpusDigest, "-"))
	if res.Uncounted > 0 {
		fmt.Fprintf(w, "note: %d games of the database have no counts (stored by ingest); train on their files to count them\n", res.Uncounted)
	}
	if arrowDir != "" {
		fmt.Fprintf(w, "arrow: %s/%s (%d positions), %s/%s (cumulative counts)\n", arrowDir, train.PositionsFile,
			res.Total.Positions, arrowDir, train.CountsFile)
	}
	if top > 0 {
		fmt.Fprintf(w, "top categories (of those with n_c >= %d):\n", train.MinSamples)
		for _, r := range res.Total.MostProbable(top) {
			fmt.Fprintf(w, "  %-24s p %6.2f%%  n_p %8d  n_c %8d\n", r.Name, 100*r.P, r.NP, r.NC)
		}
	}
	_, err := fmt.Fprintf(w, "elapsed: %s with %d workers\n", res.Elapsed.Round(time.Millisecond), res.Report.Workers)
	return err
}
