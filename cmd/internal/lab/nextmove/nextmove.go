// Package nextmove runs the next-move test of Tsuruoka, Yokoyama and
// Chikayama (ICGA 2002, Table 3) on positions of real games: the engine
// searches each position, for each of several settings (a search mode and
// its limit), and scores a point when it chooses the move that was
// played.
//
//	positions, rep, err := nextmove.Select(ctx, paths, nextmove.Options{
//		PlyFrom: 30, PlyTo: 150, PerGame: 1, Count: 48})
//	settings, err := nextmove.ParseSettings(nextmove.DefaultSettings)
//	rows, err := nextmove.Run(ctx, positions, nextmove.Config{Settings: settings, HashMB: 64})
//
// The positions come from sample.Load with their move history, so that
// the search at their root knows the move that led to them.
package nextmove

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/sample"
	"github.com/rpshogi/rpshogi/engine"
	"github.com/rpshogi/rpshogi/engine/eval"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
)

// Setting is one engine setting of the test: a search mode and its limit
// N (threshold 2^-N, or N plies).
type Setting struct {
	Mode engine.Mode
	N    int
}

// String returns "rp:N" or "depth:N".
func (s Setting) String() string {
	if s.Mode == engine.ModeDepth {
		return "depth:" + strconv.Itoa(s.N)
	}
	return "rp:" + strconv.Itoa(s.N)
}

// Label returns the setting as the paper's Table 3 gives it.
func (s Setting) Label() string {
	if s.Mode == engine.ModeDepth {
		return fmt.Sprintf("%d plies", s.N)
	}
	return fmt.Sprintf("2^-%d", s.N)
}

// Limits returns the search limits: MaxBudget N·HalfCost in both modes.
func (s Setting) Limits() engine.Limits {
	return engine.Limits{MaxBudget: s.N * engine.HalfCost}
}

// DefaultSettings are the rows of the paper's Table 3.
const DefaultSettings = "rp:5,rp:7,rp:9,rp:11,depth:5,depth:6,depth:7"

// ParseSettings reads "rp:5,rp:7,depth:5" (realization:N is rp:N),
// dropping repeats.
func ParseSettings(s string) ([]Setting, error) {
	var out []Setting
	seen := map[Setting]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		mode, n, ok := strings.Cut(part, ":")
		v, err := strconv.Atoi(n)
		if !ok || err != nil || v < 1 || v > 40 {
			return nil, fmt.Errorf("setting %q: want rp:N or depth:N with N in 1..40", part)
		}
		st := Setting{N: v}
		switch mode {
		case "rp", "realization":
			st.Mode = engine.ModeRealization
		case "depth":
			st.Mode = engine.ModeDepth
		default:
			return nil, fmt.Errorf("setting %q: unknown mode %q (want rp or depth)", part, mode)
		}
		if !seen[st] {
			out = append(out, st)
		}
		seen[st] = true
	}
	return out, nil
}

// Position is a position of the test and the move played in it.
type Position struct {
	Source string
	Game   int // index of the game in its source
	Ply    int // moves played before the position
	SFEN   string
	Played kifu.Move
	// Pos is the position with the game's moves played: its LastMove is
	// the game's. Searches use clones of it.
	Pos *kifu.Position
}

// Options selects the positions of the test.
type Options struct {
	// PlyFrom and PlyTo: positions after PlyFrom to PlyTo moves.
	PlyFrom, PlyTo int
	// PerGame positions of a game at most; Count in all.
	PerGame, Count int
	// Seed varies the choice.
	Seed uint64
	// Ingest reads the records.
	Ingest ingest.Options
}

// Select reads the games of paths and returns the positions of the test
// (sample.Load): those after PlyFrom to PlyTo moves with two legal moves
// or more and a next move, per game the PerGame of lowest hash, and among
// all those the Count of lowest hash, in walk order.
func Select(ctx context.Context, paths []string, opts Options) ([]Position, *ingest.Report, error) {
	samples, rep, err := sample.Load(ctx, paths, sample.Options{
		PlyFrom: opts.PlyFrom, PlyTo: opts.PlyTo, PerGame: opts.PerGame, Count: opts.Count, Seed: opts.Seed,
		Keep:   func(pos *kifu.Position) bool { return len(pos.LegalMoves()) >= 2 },
		Ingest: opts.Ingest,
	})
	if err != nil {
		return nil, rep, err
	}
	out := make([]Position, len(samples))
	for i := range samples {
		s := &samples[i]
		pos, err := s.Position()
		if err != nil {
			return nil, rep, err
		}
		out[i] = Position{Source: s.Source, Game: s.Game, Ply: s.Ply, SFEN: pos.SFEN(), Played: s.Next, Pos: pos}
	}
	return out, rep, nil
}

// Config says how to run the test.
type Config struct {
	Settings []Setting
	// HashMB is the transposition table's size; it is cleared before
	// each position.
	HashMB int
	// MaxTime stops a search after this long (0: no limit, as in the
	// paper).
	MaxTime time.Duration
	// Coster prices moves (nil: engine.DefaultConfig's).
	Coster engine.Coster
	// NoMate switches the engine's mate searches off: the root's df-pn
	// (RootMateNodes), the interior df-pn (NodeMateNodes) and the
	// interior quick test (NodeMatePlies) all 0. By default they run with
	// the engine's defaults, as a USI engine runs them.
	NoMate bool
	// OnRow, if not nil, is called with each setting's row when done.
	OnRow func(*Row)
}

// Row is the result of one setting.
type Row struct {
	Setting string `json:"setting"`
	// Mate says whether the mate searches ran (Config.NoMate).
	Mate      bool    `json:"mate"`
	Mode      string  `json:"mode"`
	Label     string  `json:"label"`
	MaxBudget int     `json:"max_budget"`
	Seconds   float64 `json:"seconds"`
	// CPUSeconds is the CPU time of this process over the searches
	// (the search runs on one thread; on a busy machine it is the fairer
	// measure), or null when unknown.
	CPUSeconds *float64 `json:"cpu_seconds"`
	Nodes      uint64   `json:"nodes"`
	Correct    int      `json:"correct"`
	Total      int      `json:"total"`
	Percent    float64  `json:"percent"`
	Capped     int      `json:"capped"` // searches stopped by MaxTime
	Moves      []string `json:"moves"`  // the move chosen in each position
	// Elapsed and CPU are the unrounded times; CPUKnown says whether CPU
	// is.
	Elapsed  time.Duration `json:"-"`
	CPU      time.Duration `json:"-"`
	CPUKnown bool          `json:"-"`
}

// Run searches every position with every setting, one position at a time
// on one thread, from a cleared table, and returns a row per setting. It
// stops with ctx's error when ctx is done.
func Run(ctx context.Context, positions []Position, cfg Config) ([]*Row, error) {
	coster := cfg.Coster
	if coster == nil {
		coster = engine.DefaultConfig().Coster
	}
	s := engine.NewSearcher(cfg.HashMB, coster)
	if cfg.NoMate {
		s.RootMateNodes, s.NodeMateNodes, s.NodeMatePlies = 0, 0, 0
	}
	stop := context.AfterFunc(ctx, s.Stop)
	defer stop()
	var rows []*Row
	for _, st := range cfg.Settings {
		row := &Row{Setting: st.String(), Mate: !cfg.NoMate, Mode: st.Mode.String(), Label: st.Label(),
			MaxBudget: st.Limits().MaxBudget, Total: len(positions), Moves: []string{}}
		s.Mode = st.Mode
		for i := range positions {
			p := &positions[i]
			if err := ctx.Err(); err != nil {
				return rows, err
			}
			lim := st.Limits()
			if cfg.MaxTime > 0 {
				lim.Soft, lim.Hard = cfg.MaxTime, cfg.MaxTime
			}
			s.NewGame()
			cpu0, ok0 := processCPUTime()
			start := time.Now()
			res := s.Search(p.Pos.Clone(), lim, nil)
			row.Elapsed += time.Since(start)
			cpu1, ok1 := processCPUTime()
			row.CPU += cpu1 - cpu0
			row.CPUKnown = ok0 && ok1
			if err := ctx.Err(); err != nil {
				return rows, err
			}
			row.Nodes += res.Nodes
			row.Moves = append(row.Moves, BestMoveText(res))
			if res.Move != kifu.MoveNone && !res.Win && res.Move.Move16() == p.Played.Move16() {
				row.Correct++
			}
			mate := res.Score >= eval.MateInMaxPly || res.Score <= -eval.MateInMaxPly
			if cfg.MaxTime > 0 && res.Budget < lim.MaxBudget && !mate && !res.Win {
				row.Capped++
			}
		}
		row.Seconds = math.Round(row.Elapsed.Seconds()*1000) / 1000
		if row.CPUKnown {
			c := math.Round(row.CPU.Seconds()*1000) / 1000
			row.CPUSeconds = &c
		}
		row.Percent = math.Round(1000*float64(row.Correct)/float64(row.Total)) / 10
		if cfg.OnRow != nil {
			cfg.OnRow(row)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// BestMoveText returns the move of r as USI writes it: "win", "resign" or
// the move.
func BestMoveText(r engine.Result) string {
	switch {
	case r.Win:
		return "win"
	case r.Move == kifu.MoveNone:
		return "resign"
	}
	return r.Move.USI()
}
