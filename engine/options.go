package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// defaultOverhead is MoveOverhead's default: the time kept in reserve on
// every move. On a busy two-core machine the search thread can be kept
// off the CPU for a few tens of milliseconds, which the margin covers.
const defaultOverhead = 30 * time.Millisecond

// DefaultProbability is the default of the USI option Probability, the
// estimator of a move's probability: "model" (the learned move model;
// the others are "category", the paper's n_p/n_c, and "per-move").
const DefaultProbability = "model"

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
	dev   bool // a developer option: listed only with DeveloperOptions (userOptions)
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

// userOptions are the options a GUI shows its user, listed by "usi"; the
// others are developer options (the search's experiments and tuning),
// which "usi" lists only after "setoption name DeveloperOptions value
// true" and setoption accepts whether listed or not, so that a match
// runner or a script sets them as before. Where YaneuraOu has an option
// of the same meaning it has the same name (USI_Hash, USI_Ponder,
// Threads, MultiPV, ResignValue, EnteringKingRule); MoveOverhead is
// YaneuraOu's NetworkDelay, DrawValue its Contempt with the opposite sign.
var userOptions = []string{"USI_Hash", "USI_Ponder", "Threads", "MultiPV", "MoveOverhead", "ResignValue",
	"DrawValue", "EnteringKingRule", "DeveloperOptions"}

func newOptions() *options {
	o := &options{list: []*option{
		{name: "USI_Hash", kind: "spin", def: "64", min: 1, max: 65536, help: "transposition table size in MB"},
		{name: "USI_Ponder", kind: "check", def: "false", help: "send a ponder move with bestmove"},
		{name: "SearchMode", kind: "combo", def: "realization", vars: []string{"realization", "depth"},
			help: "node expansion: realization probability (Tsuruoka et al.) or depth"},
		{name: "Probability", kind: "combo", def: DefaultProbability, vars: []string{"category", "per-move", "model"},
			help: "a move's probability: the largest n_p/n_c of its categories (the paper), of the per-move n_p/m_c, or the learned move model's softmax"},
		{name: "ThresholdMax", kind: "spin", def: "40", min: 1, max: 60,
			help: "deepest iteration: realization probability 2^-N (depth N/... in depth mode: N plies)"},
		{name: "MateHash", kind: "spin", def: strconv.Itoa(defaultMateHashMB), min: 1, max: 65536, help: "mate search table size in MB"},
		{name: "RootMateNodes", kind: "spin", def: strconv.Itoa(defaultRootMateNodes), min: 0, max: 1 << 30,
			help: "nodes of the mate search at the root before the main search (0: none)"},
		{name: "NodeMateNodes", kind: "spin", def: strconv.Itoa(defaultNodeMateNodes), min: 0, max: 1 << 20,
			help: "nodes of each df-pn mate and mate-threat search at interior nodes with six plies left (0: none)"},
		{name: "NodeMatePlies", kind: "spin", def: strconv.Itoa(defaultNodeMatePlies), min: 0, max: 3,
			help: "quick mate and mate-threat test at interior nodes: mates of 1 ply (two plies left) or 3 plies (four left) (0: none; 2 is 1)"},
		{name: "QEscapePlies", kind: "spin", def: strconv.Itoa(defaultQEscapePlies), min: 0, max: maxQPly,
			help: "quiescence plies (from the leaf) on which escapes of attacked pieces are tried"},
		{name: "QLosingPlies", kind: "spin", def: strconv.Itoa(defaultQLosingPlies), min: 0, max: maxQPly,
			help: "quiescence plies (from the leaf) on which captures that lose material are tried too"},
		{name: "QCheckPlies", kind: "spin", def: strconv.Itoa(defaultQCheckPlies), min: 0, max: maxQPly,
			help: "quiescence plies (from the leaf) on which quiet checks that do not lose material are tried"},
		{name: "NullMove", kind: "check", def: strconv.FormatBool(defaultNullMoveRP),
			help: "null-move pruning in the realization mode (depth mode always prunes by null moves)"},
		{name: "ReverseFutility", kind: "check", def: strconv.FormatBool(defaultReverseFutility),
			help: "reverse futility pruning at the realization mode's frontier nodes (static evaluation far above beta)"},
		{name: "Futility", kind: "check", def: strconv.FormatBool(defaultFutility),
			help: "futility pruning of quiet moves into leaves in the realization mode (static evaluation far below alpha)"},
		{name: "NodeLimitStep", kind: "check", def: "false",
			help: "under go nodes, step the threshold by 2 instead of 4 when the larger step is not expected to end within the nodes left (as under a clock)"},
		{name: "IterFit", kind: "spin", def: strconv.Itoa(defaultIterFit), min: 0, max: 1000,
			help: "realization mode under a clock: the next iteration's threshold step is the largest (down to 0.2 of a halving) whose estimated time times IterFit/100 fits in the time left, 150 as measured (0: steps of 4, or 2 when 4 would not end)"},
		{name: "OrderHistory", kind: "check", def: "false",
			help: "realization mode: order quiet moves by a butterfly history (side, origin or dropped piece, destination) with a bonus on cut-offs and a malus for the quiet moves searched before, instead of the piece-to-square history"},
		{name: "OrderBucket", kind: "spin", def: "1", min: 1, max: 2000,
			help: "realization mode: compare the costs of a node's moves in buckets of this many cost units (100: a halving of the probability) when ordering them, so that captures, killers and history order the moves of a bucket (1: exact costs)"},
		{name: "LateReduction", kind: "spin", def: "0", min: 0, max: 1000,
			help: "realization mode: the preliminary search of a quiet move of probability below 1/2, from the fourth move of a node on, gets this many cost units less (100: half the probability), and is searched again without them if it beats alpha (0: none)"},
		{name: "RefuteCap", kind: "spin", def: strconv.Itoa(defaultRefuteCap), min: 0, max: 2000,
			help: "realization mode: the moves of a node entered by a move of cost RefuteMin or more cost at most this many units (the refutations of an improbable move; 0: no cap)"},
		{name: "RefuteMin", kind: "spin", def: strconv.Itoa(defaultRefuteMin), min: 0, max: 2000,
			help: "realization mode: the least cost of a move whose replies RefuteCap caps (600: probability 1/64)"},
		{name: "RefutePlies", kind: "spin", def: "0", min: 0, max: 64,
			help: "realization mode: RefuteCap caps the nodes of the first this many plies only (1: the replies to the root's moves; 0: every ply)"},
		{name: "QSearchTT", kind: "check", def: "false",
			help: "quiescence search probes and stores the transposition table and tries its move first"},
		{name: "Aspiration", kind: "spin", def: strconv.Itoa(defaultAspiration), min: 0, max: 10000,
			help: "realization mode: half width in centipawns of the root's window around the last iteration's score, widened on a fail (0: a full window)"},
		{name: "ModelMinBudget", kind: "spin", def: strconv.Itoa(defaultModelMinBudget), min: 0, max: 2000,
			help: "realization mode with Probability=model: nodes whose budget is below this price their moves lazily by the category table (0: the model everywhere)"},
		{name: "DepthFullWidth", kind: "check", def: "false",
			help: "depth mode without the plausible-move generator: every legal move at every depth (the paper's full-width baseline)"},
		// Depth mode's forward pruning and extensions (engine/depth.go, engine/fhr.go).
		{name: "DepthNullMove", kind: "check", def: strconv.FormatBool(!defaultDepthOpts().NoNullMove), help: "depth mode: null-move pruning"},
		{name: "DepthCheckExtension", kind: "check", def: "true", help: "depth mode: extend checks that do not lose material"},
		{name: "DepthRecaptureExtension", kind: "check", def: "true", help: "depth mode: extend recaptures that do not lose material"},
		{name: "DepthFHR", kind: "check", def: strconv.FormatBool(defaultDepthOpts().FHR),
			help: "depth mode: fail-high reductions (Feldmann): a node whose evaluation less the opponent's threat and the margin reaches beta is searched a ply shallower first"},
		{name: "DepthFHRMargin", kind: "spin", def: "0", min: 0, max: 5000, help: "depth mode: the fail-high reductions' constant threat margin (centipawns)"},
		{name: "DepthPlausiblePlies", kind: "spin", def: "3", min: 1, max: 3,
			help: "depth mode: the deepest remaining depth with plausible moves only (and a stand pat); deeper nodes search every move"},
		{name: "CRA", kind: "combo", def: "off", vars: []string{"off", "order", "filter"}, // CRA option (engine/cra.go)
			help: "Candidate Relevance Analysis: order moves by CRA rank, or also drop irrelevant moves (not at the root)"},
		{name: "Bayes", kind: "combo", def: "off", vars: []string{"off", "bf", "ucb", "qss"}, // Bayesian search (engine/bayes_search.go)
			help: "the Bayesian randomized search (Yokoyama and Kitsuregawa) growing its tree breadth first, by UCB or by QSS; off: the plain search"},
		{name: "BayesSimnum", kind: "spin", def: "1", min: 1, max: maxSims, help: "simulations of a leaf before it is expanded"},
		{name: "BayesPVth", kind: "spin", def: "0", min: 0, max: 16, help: "plies the principal variation must reach beyond the play depth"},
		{name: "BayesPlayDepth", kind: "spin", def: "3", min: 1, max: 40, help: "play depth without go depth (budget N·100)"},
		{name: "BayesSimDepth", kind: "spin", def: "1", min: 1, max: 40, help: "depth of each simulation (budget N·100)"},
		{name: "BayesSigma", kind: "spin", def: "200", min: 0, max: 2000, help: "standard deviation of the leaf noise (cp)"},
		{name: "BayesDelta", kind: "spin", def: "100", min: 0, max: 2000, help: "offset of the pseudo pins after a first simulation (cp)"},
		{name: "BayesSeed", kind: "spin", def: "1", min: 0, max: 1 << 30, help: "seed of the leaf noise"},
		{name: "BayesMaxChildren", kind: "spin", def: "8", min: 2, max: 64, help: "children of the root with UCB and QSS (2 fewer per ply, at least 2)"},
		// Threat stacks (engine/threatsearch.go): the mode, and the rules of full for the ablations.
		{name: "ThreatStacks", kind: "combo", def: "off", vars: []string{"off", "qsearch", "full"},
			help: "threat stacks (Grimbergen 2003): threat quiescence at the leaves, or also the three pruning rules and horizon moves"},
		{name: "ThreatPruneSacrifices", kind: "check", def: "true", help: "full: drop sacrifices one move before the nominal depth"},
		{name: "ThreatPruneChecks", kind: "check", def: "false", help: "full: drop checking sacrifices too"},
		{name: "ThreatPruneCount", kind: "check", def: "true", help: "full: a node with more strong threats than plies left (plus the margin) becomes a leaf"},
		{name: "ThreatPruneMargin", kind: "spin", def: "2", min: 0, max: 8, help: "full: the count rule's safety margin in plies"},
		{name: "ThreatPruneIdle", kind: "check", def: "true", help: "full: under a strong threat, drop moves that neither execute, resolve nor introduce a threat"},
		{name: "ThreatHorizon", kind: "check", def: "true", help: "full: score horizon moves low at the nominal depth"},
		{name: "ThreatHorizonScale", kind: "spin", def: "100", min: 0, max: 400, help: "full: horizon penalty in percent of the threat's value"},
		{name: "ThreatStrongOpening", kind: "spin", def: "90", min: 0, max: 5000, help: "strong-threat threshold (centipawns) in the opening and middle game"},
		{name: "ThreatStrongEndgame", kind: "spin", def: "400", min: 0, max: 5000, help: "strong-threat threshold (centipawns) in the endgame"},
		{name: "ThreatQSPly", kind: "spin", def: "16", min: 1, max: 32, help: "depth cap of the threat quiescence search"},
		{name: "ThreatQSWide", kind: "check", def: "false", help: "threat quiescence also tries every capture that wins material"},
		{name: "ThreatDefendScale", kind: "spin", def: "100", min: 0, max: 100, help: "threat quiescence: percent of the opponent's stronger threat that standing pat costs"},
		{name: "ThreatQSCheckPlies", kind: "spin", def: strconv.Itoa(defaultThreatQSCheckPlies), min: 0, max: 32, help: "threat quiescence: plies on which king threats count (checks executed, the king defended)"},
		{name: "MoveOverhead", kind: "spin", def: strconv.Itoa(int(defaultOverhead / time.Millisecond)), min: 0, max: 5000, help: "milliseconds kept in reserve per move (process scheduling, pipes, the GUI)"},
		{name: "Threads", kind: "spin", def: "1", min: 1, max: 256, help: "search threads (lazy SMP, engine/smp.go; 1: deterministic)"},
		{name: "Eval", kind: "combo", def: "learned", vars: []string{"hand", "learned"}, // Eval option (engine/evalkind.go)
			help: "static evaluation: hand-set (material, placement, king safety) or learned from the results of real games"},
		{name: "MultiPV", kind: "spin", def: "1", min: 1, max: kifu.MaxMoves, help: "number of best moves reported with their lines (info multipv k; engine/multipv.go)"},
		{name: "ResignValue", kind: "spin", def: "99999", min: 0, max: 99999, help: "resign when the score is this many centipawns or more below zero (99999: only when mated)"},
		{name: "DrawValue", kind: "spin", def: "0", min: -30000, max: 30000, help: "score of a repetition draw (千日手) for the engine, in centipawns"},
		{name: "EnteringKingRule", kind: "combo", def: "CSARule27", vars: kifu.EnteringKingRuleNames(),
			help: "entering-king rule (入玉, YaneuraOu's names): CSA 27-point declaration (28 Black, 27 White), 24-point (31 to win), their handicap forms (H: the upper hand needs its missing points fewer), the try rule (the king reaching the opponent's king square wins), or none"},
		{name: "DeveloperOptions", kind: "check", def: "false",
			help: "list the developer options (the search's experiments and tuning) too at the next usi; setoption accepts them either way"},
	}}
	for _, x := range o.list {
		x.value = x.def
		x.dev = !slices.Contains(userOptions, x.name)
	}
	return o
}

// listed returns the options "usi" lists: the user options, and the
// developer options too when DeveloperOptions is on.
func (o *options) listed() []*option {
	all := o.bool("DeveloperOptions")
	var out []*option
	for _, x := range o.list {
		if all || !x.dev {
			out = append(out, x)
		}
	}
	return out
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
func (o *options) craMode() craMode {
	m, _ := parseCRAMode(o.find("CRA").value)
	return m
}

// evalKind returns the Eval option's evaluation.
func (o *options) evalKind() evalKind {
	if o.find("Eval").value == "learned" {
		return evalLearned
	}
	return evalHand
}

// apply sets s from the options and cfg's costers: everything but the
// sizes of the hash tables (the USI loop makes those at isready).
func (o *options) apply(s *Searcher, cfg Config) {
	s.Mode = o.mode()
	s.Coster, _ = cfg.Estimator(o.find("Probability").value)
	s.Eval = o.evalKind()
	s.Threads = o.int("Threads")
	s.RootMateNodes = uint64(o.int("RootMateNodes"))
	s.NodeMateNodes = uint64(o.int("NodeMateNodes"))
	s.NodeMatePlies = o.int("NodeMatePlies")
	s.FullWidth = o.bool("DepthFullWidth")
	s.depthOpts = depthOpts{NoNullMove: !o.bool("DepthNullMove"), NoCheckExt: !o.bool("DepthCheckExtension"),
		NoRecaptureExt: !o.bool("DepthRecaptureExtension"), FHR: o.bool("DepthFHR"), FHRMargin: o.int("DepthFHRMargin"),
		FewerPlausible: selectiveDepth - o.int("DepthPlausiblePlies")}
	s.QEscapePlies, s.QLosingPlies = o.int("QEscapePlies"), o.int("QLosingPlies")
	s.NullMoveRP = o.bool("NullMove")
	s.ReverseFutility, s.Futility = o.bool("ReverseFutility"), o.bool("Futility")
	s.NodeHalfStep = o.bool("NodeLimitStep")
	s.IterFit = o.int("IterFit")
	s.OrderHistory, s.OrderBucket = o.bool("OrderHistory"), o.int("OrderBucket")
	s.LateReduction = o.int("LateReduction")
	s.RefuteCap, s.RefuteMin, s.RefutePlies = o.int("RefuteCap"), o.int("RefuteMin"), o.int("RefutePlies")
	s.QCheckPlies = o.int("QCheckPlies")
	s.QTT, s.Aspiration = o.bool("QSearchTT"), o.int("Aspiration")
	s.ModelMinBudget, s.CheapCoster = o.int("ModelMinBudget"), nil // cheapNode (engine/movepick.go)
	if mc, ok := cfg.Coster.(moveCoster); ok {
		s.CheapCoster = mc
	}
	s.CRA = o.craMode()           // CRA option (engine/cra.go)
	s.Threats = o.threatOptions() // threat stacks (engine/threatsearch.go)
	o.habits(s)                   // MultiPV, DrawValue, EnteringKingRule (engine/usihabits.go)
}
