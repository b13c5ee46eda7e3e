package selfplay

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rpshogi/rpshogi/tables"
)

// Options says how the games are played. Two runs with the same Options
// (and the same binary: its compiled model, tables and evaluation) give
// the same games.
type Options struct {
	// Seed varies the games: game i draws its opening and its sampled
	// moves from a generator seeded with (Seed, i).
	Seed uint64
	// Nodes is the search's node limit per move; 0 draws every move from
	// the move model, without search.
	Nodes uint64
	// SamplePlies (Nodes > 0) is the number of plies after the opening
	// that are drawn from the move model before the search takes over,
	// so that games from one opening differ (0: none).
	SamplePlies int
	// MaxPlies ends a game, unfinished (%CHUDAN), after this many plies,
	// the opening's included (0: DefaultMaxPlies).
	MaxPlies int
	// MaxOpeningPlies bounds the plies a game takes from its opening: 0
	// to MaxOpeningPlies, drawn per game (0: DefaultMaxOpeningPlies; -1:
	// none, every game starts at the initial position).
	MaxOpeningPlies int
	// Openings are the real games whose first moves start the games, and
	// OpeningsName names them in the records (nil: BundledOpenings,
	// "bundled").
	Openings     []Opening
	OpeningsName string
	// HashMB is the size of each searcher's transposition table
	// (Nodes > 0; 0: 16).
	HashMB int
	// RootMateNodes (Nodes > 0) bounds the mate search the engine runs
	// at the root before each search, as the USI option RootMateNodes
	// (0: DefaultRootMateNodes; -1: none). Its nodes are not
	// counted in Nodes: at a few thousand nodes a move it costs more than
	// the search.
	RootMateNodes int
}

// DefaultRootMateNodes is the engine's default for its USI option
// RootMateNodes (TestDefaultRootMateNodes).
const DefaultRootMateNodes = 100_000

// DefaultMaxPlies is the default cap on a game's plies.
const DefaultMaxPlies = 320

// DefaultSamplePlies is the command's default Options.SamplePlies.
const DefaultSamplePlies = 6

// withDefaults returns o with its zero fields set to their defaults and
// the openings loaded.
func (o Options) withDefaults() (Options, error) {
	if o.MaxPlies == 0 {
		o.MaxPlies = DefaultMaxPlies
	}
	switch {
	case o.MaxOpeningPlies == 0:
		o.MaxOpeningPlies = DefaultMaxOpeningPlies
	case o.MaxOpeningPlies < 0:
		o.MaxOpeningPlies = 0
	}
	if o.HashMB == 0 {
		o.HashMB = 16
	}
	switch {
	case o.RootMateNodes == 0:
		o.RootMateNodes = DefaultRootMateNodes
	case o.RootMateNodes < 0:
		o.RootMateNodes = 0
	}
	if o.MaxPlies < 1 || o.SamplePlies < 0 || o.HashMB < 1 {
		return o, errors.New("selfplay: want MaxPlies >= 1, SamplePlies >= 0 and HashMB >= 1")
	}
	if o.Openings == nil {
		ops, err := BundledOpenings(o.MaxOpeningPlies)
		if err != nil {
			return o, err
		}
		o.Openings, o.OpeningsName = ops, "bundled"
	}
	if len(o.Openings) == 0 {
		return o, errors.New("selfplay: no opening")
	}
	if o.OpeningsName == "" || strings.ContainsAny(o.OpeningsName, " \n") {
		return o, errors.New("selfplay: the openings need a name without spaces")
	}
	return o, nil
}

// Plan is a set of games to play: the Options with their defaults set
// and the openings loaded. It is read-only, shared by the Players.
type Plan struct {
	opts     Options
	settings string
}

// NewPlan checks opts, sets its defaults and loads its openings.
func NewPlan(opts Options) (*Plan, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	s := fmt.Sprintf("seed=%d nodes=%d max-plies=%d opening-plies=0-%d openings=%s tables=%s",
		o.Seed, o.Nodes, o.MaxPlies, o.MaxOpeningPlies, o.OpeningsName, short(tables.Digest()))
	if o.Nodes > 0 {
		s += fmt.Sprintf(" sample-plies=%d root-mate-nodes=%d eval=%s", o.SamplePlies, o.RootMateNodes, short(tables.EvalDigest))
	}
	return &Plan{opts: o, settings: s}, nil
}

// Options returns the plan's options, defaults set.
func (p *Plan) Options() Options { return p.opts }

// Settings returns the line that says how the plan's games are made:
// everything a game depends on but its number (the options and the
// digests of the compiled tables, model and evaluation). Records carry
// it in a comment; two records with the same settings and number hold
// the same game.
func (p *Plan) Settings() string { return p.settings }

// short returns the first 12 hex digits of a "sha256:..." digest.
func short(d string) string {
	d = strings.TrimPrefix(d, "sha256:")
	return d[:min(12, len(d))]
}
