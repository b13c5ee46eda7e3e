package engine

import "github.com/rpshogi/rpshogi/kifu"

// bayesConfig reads the Bayes options; ok is false with Bayes=off.
func (o *options) bayesConfig() (cfg bayesConfig, ok bool) {
	st, err := parseBayesStrategy(o.find("Bayes").value)
	if err != nil || st == bayesOff {
		return cfg, false
	}
	cfg = defaultBayesConfig()
	cfg.Strategy = st
	cfg.Simnum = o.int("BayesSimnum")
	cfg.PVth = o.int("BayesPVth")
	cfg.PlayBudget = o.int("BayesPlayDepth") * HalfCost
	cfg.SimBudget = o.int("BayesSimDepth") * HalfCost
	cfg.Sigma = float64(o.int("BayesSigma"))
	cfg.Delta = float64(o.int("BayesDelta"))
	cfg.Seed = uint64(o.int("BayesSeed"))
	cfg.MaxChildren = o.int("BayesMaxChildren")
	return cfg, true
}

// search runs the plain search, or with Bayes set the Bayesian one, whose
// play depth is go depth's if given; it reports the tree's size in an
// "info string".
func (u *usi) search(s *Searcher, pos *kifu.Position, ctl *Control, depth int, info func(Info)) Result {
	cfg, ok := u.opts.bayesConfig()
	if !ok {
		return s.SearchWith(pos, ctl, info)
	}
	if depth > 0 {
		cfg.PlayBudget = depth * HalfCost
	}
	b := newBayesSearcher(s, cfg)
	res := b.SearchWith(pos, ctl, info)
	u.out.println("info string bayes %s tree %d sims %d nodes %d", cfg.Strategy, b.TreeSize(), b.Sims, res.Nodes)
	return res
}
