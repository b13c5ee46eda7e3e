package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// defaultOverhead is MoveOverhead's default: the time kept in reserve on
// every move. On a busy two-core machine the search thread can be kept
// off the CPU for a few tens of milliseconds, which the margin covers.
const defaultOverhead = 50 * time.Millisecond

// option is one USI option.
type option struct {
	name  string
	kind  string // "spin", "check", "combo"
	def   string
	min   int
	max   int
	vars  []string
	value string
	help  string
}

func (o *option) usi() string {
	s := fmt.Sprintf("option name %s type %s default %s", o.name, o.kind, o.def)
	switch o.kind {
	case "spin":
		s += fmt.Sprintf(" min %d max %d", o.min, o.max)
	case "combo":
		for _, v := range o.vars {
			s += " var " + v
		}
	}
	return s
}

// options are the engine's USI options.
type options struct {
	list []*option
}

func newOptions() *options {
	o := &options{list: []*option{
		{name: "USI_Hash", kind: "spin", def: "64", min: 1, max: 65536, help: "transposition table size in MB"},
		{name: "USI_Ponder", kind: "check", def: "false", help: "send a ponder move with bestmove"},
		{name: "SearchMode", kind: "combo", def: "realization", vars: []string{"realization", "depth"},
			help: "node expansion: realization probability (Tsuruoka et al.) or depth"},
		{name: "Probability", kind: "combo", def: "category", vars: []string{"category", "per-move", "model"},
			help: "a move's probability: the largest n_p/n_c of its categories (the paper), of the per-move n_p/m_c, or the learned move model's softmax"},
		{name: "ThresholdMax", kind: "spin", def: "40", min: 1, max: 60,
			help: "deepest iteration: realization probability 2^-N (depth N/... in depth mode: N plies)"},
		{name: "MateHash", kind: "spin", def: strconv.Itoa(DefaultMateHashMB), min: 1, max: 65536, help: "mate search table size in MB"},
		{name: "RootMateNodes", kind: "spin", def: strconv.Itoa(DefaultRootMateNodes), min: 0, max: 1 << 30,
			help: "nodes of the mate search at the root before the main search (0: none)"},
		{name: "NodeMateNodes", kind: "spin", def: strconv.Itoa(DefaultNodeMateNodes), min: 0, max: 1 << 20,
			help: "nodes of each mate and mate-threat search at interior nodes (0: none)"},
		{name: "CRA", kind: "combo", def: "off", vars: []string{"off", "order", "filter"}, // CRA option (engine/cra.go)
			help: "Candidate Relevance Analysis: order moves by CRA rank, or also drop irrelevant moves (not at the root)"},
		{name: "MoveOverhead", kind: "spin", def: strconv.Itoa(int(defaultOverhead / time.Millisecond)), min: 0, max: 5000, help: "milliseconds kept in reserve per move (process scheduling, pipes, the GUI)"},
		{name: "MultiPV", kind: "spin", def: "1", min: 1, max: kifu.MaxMoves, help: "number of best moves reported with their lines (info multipv k; engine/multipv.go)"},
		{name: "ResignValue", kind: "spin", def: "99999", min: 0, max: 99999, help: "resign when the score is this many centipawns or more below zero (99999: only when mated)"},
		{name: "DrawValue", kind: "spin", def: "0", min: -30000, max: 30000, help: "score of a repetition draw (千日手) for the engine, in centipawns"},
		{name: "EnteringKingRule", kind: "combo", def: "CSARule27", vars: []string{"CSARule27", "NoEnteringKing"},
			help: "entering-king declaration (入玉宣言): the CSA 27-point rule, or never declare"},
	}}
	for _, x := range o.list {
		x.value = x.def
	}
	return o
}

func (o *options) find(name string) *option {
	for _, x := range o.list {
		if strings.EqualFold(x.name, name) {
			return x
		}
	}
	return nil
}

// set changes an option, checking its type and range.
func (o *options) set(name, value string) error {
	x := o.find(name)
	if x == nil {
		return fmt.Errorf("unknown option %q", name)
	}
	switch x.kind {
	case "spin":
		n, err := strconv.Atoi(value)
		if err != nil || n < x.min || n > x.max {
			return fmt.Errorf("option %s: %q is not a number in %d..%d", x.name, value, x.min, x.max)
		}
	case "check":
		if value != "true" && value != "false" {
			return fmt.Errorf("option %s: %q is not true or false", x.name, value)
		}
	case "combo":
		ok := false
		for _, v := range x.vars {
			ok = ok || v == value
		}
		if !ok {
			return fmt.Errorf("option %s: %q is not one of %s", x.name, value, strings.Join(x.vars, ", "))
		}
	}
	x.value = value
	return nil
}

func (o *options) int(name string) int {
	n, _ := strconv.Atoi(o.find(name).value)
	return n
}

func (o *options) bool(name string) bool { return o.find(name).value == "true" }

func (o *options) mode() Mode {
	if o.find("SearchMode").value == "depth" {
		return ModeDepth
	}
	return ModeRealization
}

// craMode returns the CRA option's mode (engine/cra.go).
func (o *options) craMode() CRAMode {
	m, _ := ParseCRAMode(o.find("CRA").value)
	return m
}
