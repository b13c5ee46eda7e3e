package craexp

import (
	"context"

	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/cmd/internal/loadavg"
	"github.com/rpshogi/rpshogi/kifu"
)

// SearchReport is the outcome of the §4.3 experiment on one game; its
// JSON is the "search" of "rpshogi cra --search --json".
type SearchReport struct {
	Game       string           `json:"game"`
	Positions  int              `json:"positions"`
	Depths     []int            `json:"depths"`
	Algorithms []string         `json:"algorithms"`
	Quiesce    bool             `json:"quiesce"`
	MaxNodes   uint64           `json:"max_nodes,omitempty"`
	LoadBefore string           `json:"load_before,omitempty"`
	LoadAfter  string           `json:"load_after,omitempty"`
	Summary    []DepthSummary   `json:"summary"`
	Results    []SearchPosition `json:"results"`
	// Plots are the files the caller wrote the plots to.
	Plots []string `json:"plots,omitempty"`
}

// SearchPosition is one position of the game searched at every depth by
// every algorithm.
type SearchPosition struct {
	MoveNumber int         `json:"move_number"`
	SFEN       string      `json:"sfen"`
	Legal      int         `json:"legal"`
	Runs       []SearchRun `json:"runs"`
}

// SearchRun is one search.
type SearchRun struct {
	Depth     int     `json:"depth"`
	Algorithm string  `json:"algorithm"`
	Nodes     uint64  `json:"nodes"`
	Seconds   float64 `json:"seconds"`
	Complete  bool    `json:"complete"`
	Score     int     `json:"score"`
	Move      string  `json:"move"`
}

// DepthSummary sums one depth.
type DepthSummary struct {
	Depth int              `json:"depth"`
	Algs  []AlgSummary     `json:"algorithms"`
	Pairs []PairComparison `json:"pairs"`
}

// AlgSummary sums one algorithm at one depth.
type AlgSummary struct {
	Algorithm  string  `json:"algorithm"`
	Nodes      uint64  `json:"nodes"`
	Seconds    float64 `json:"seconds"`
	FastestIn  int     `json:"fastest_in"`
	FewestIn   int     `json:"fewest_nodes_in"`
	Incomplete int     `json:"incomplete"`
}

// PairComparison says in how many positions A beat B.
type PairComparison struct {
	A            string `json:"a"`
	B            string `json:"b"`
	FasterIn     int    `json:"a_faster_in"`
	FewerNodesIn int    `json:"a_fewer_nodes_in"`
	SameMoveIn   int    `json:"same_move_in"`
}

// SearchOptions configures Search.
type SearchOptions struct {
	// Depths are the search depths in plies; Orders the algorithms.
	Depths []int
	Orders []FixedOrder
	// Quiesce and MaxNodes are those of FixedSearch.
	Quiesce  bool
	MaxNodes uint64
	// From and To bound the move numbers searched (0: the first, the
	// last).
	From, To int
	// CRA gives the CRA orderings their probabilities (nil: the
	// compiled table).
	CRA *cra.Orderer
	// OnPosition, if not nil, is called after each position with the
	// report so far (Positions, LoadAfter and Summary up to date), so
	// that a run stopped early can leave what it did; its error stops
	// the run.
	OnPosition func(rep *SearchReport, p *SearchPosition) error
}

// Search runs the experiment of the paper's §4.3 on rec: in each position
// of its main line (within From..To), a FixedSearch at each depth with
// each ordering, the orderings taking turns to go first. It stops with
// ctx's error when ctx is done.
func Search(ctx context.Context, rec *kifu.Record, opts SearchOptions) (*SearchReport, error) {
	names := make([]string, len(opts.Orders))
	for i, o := range opts.Orders {
		names[i] = o.String()
	}
	rep := &SearchReport{Game: rec.File, Depths: opts.Depths, Algorithms: names, Quiesce: opts.Quiesce,
		MaxNodes: opts.MaxNodes, LoadBefore: loadavg.Read()}
	pos, err := rec.StartPosition()
	if err != nil {
		return nil, err
	}
	fs := NewFixedSearch(opts.CRA)
	fs.Quiesce = opts.Quiesce
	fs.MaxNodes = opts.MaxNodes
	algs := opts.Orders
	var buf [kifu.MaxMoves]kifu.Move
	for ply, node := range rec.Main.Moves {
		mn := ply + 1
		if (opts.From == 0 || mn >= opts.From) && (opts.To == 0 || mn <= opts.To) {
			p := SearchPosition{MoveNumber: mn, SFEN: pos.SFEN(), Legal: len(pos.GenerateMoves(kifu.Legal, buf[:0]))}
			for di, d := range opts.Depths {
				// The algorithms take turns: each goes first as often.
				for k := range algs {
					a := algs[(k+ply+di)%len(algs)]
					r := fs.Search(ctx, pos, d, a)
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					p.Runs = append(p.Runs, SearchRun{Depth: d, Algorithm: a.String(), Nodes: r.Nodes,
						Seconds: r.Elapsed.Seconds(), Complete: r.Complete, Score: int(r.Score), Move: r.Move.USI()})
				}
			}
			rep.Results = append(rep.Results, p)
			rep.update()
			if opts.OnPosition != nil {
				if err := opts.OnPosition(rep, &rep.Results[len(rep.Results)-1]); err != nil {
					return nil, err
				}
			}
		}
		pos.DoMove(node.Move)
	}
	rep.update()
	return rep, nil
}

// update completes rep with the positions searched so far: count, load,
// summary.
func (rep *SearchReport) update() {
	rep.Positions = len(rep.Results)
	rep.LoadAfter = loadavg.Read()
	rep.Summary = Summarize(rep)
}

// run returns the run of algorithm a at depth d in p.
func (p *SearchPosition) run(d int, a string) *SearchRun {
	for i := range p.Runs {
		if r := &p.Runs[i]; r.Depth == d && r.Algorithm == a {
			return r
		}
	}
	return nil
}

// Summarize sums the results of rep per depth: per algorithm, and per
// pair of algorithms (the later one of rep.Algorithms against the
// earlier).
func Summarize(rep *SearchReport) []DepthSummary {
	var out []DepthSummary
	for _, d := range rep.Depths {
		s := DepthSummary{Depth: d}
		for _, a := range rep.Algorithms {
			as := AlgSummary{Algorithm: a}
			for i := range rep.Results {
				p := &rep.Results[i]
				r := p.run(d, a)
				as.Nodes += r.Nodes
				as.Seconds += r.Seconds
				if !r.Complete {
					as.Incomplete++
				}
				fastest, fewest := true, true
				for _, b := range rep.Algorithms {
					if b == a {
						continue
					}
					o := p.run(d, b)
					fastest = fastest && r.Seconds < o.Seconds
					fewest = fewest && r.Nodes < o.Nodes
				}
				if fastest {
					as.FastestIn++
				}
				if fewest {
					as.FewestIn++
				}
			}
			s.Algs = append(s.Algs, as)
		}
		for i, a := range rep.Algorithms {
			for _, b := range rep.Algorithms[i+1:] {
				pc := PairComparison{A: b, B: a} // the later algorithm (cra) against the earlier
				for k := range rep.Results {
					p := &rep.Results[k]
					ra, rb := p.run(d, b), p.run(d, a)
					if ra.Seconds < rb.Seconds {
						pc.FasterIn++
					}
					if ra.Nodes < rb.Nodes {
						pc.FewerNodesIn++
					}
					if ra.Move == rb.Move {
						pc.SameMoveIn++
					}
				}
				s.Pairs = append(s.Pairs, pc)
			}
		}
		out = append(out, s)
	}
	return out
}
