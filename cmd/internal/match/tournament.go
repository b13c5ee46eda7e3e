package match

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Pairing says which engines of a tournament meet.
type Pairing string

// Pairings.
const (
	// Gauntlet: the first engine plays each of the others.
	Gauntlet Pairing = "gauntlet"
	// RoundRobin: every engine plays every other.
	RoundRobin Pairing = "round-robin"
)

// ParsePairing reads "gauntlet" or "round-robin".
func ParsePairing(s string) (Pairing, error) {
	switch p := Pairing(s); p {
	case Gauntlet, RoundRobin:
		return p, nil
	}
	return "", fmt.Errorf("match: unknown pairing %q (want gauntlet or round-robin)", s)
}

// Pairs returns the matches of n engines, as engine indices, in the
// order they are played: (0,1), (0,2), ... for a gauntlet, then (1,2), ...
// for a round robin.
func (p Pairing) Pairs(n int) [][2]int {
	var out [][2]int
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			out = append(out, [2]int{a, b})
		}
		if p == Gauntlet {
			break
		}
	}
	return out
}

// Standing is one engine's total over a tournament's matches.
type Standing struct {
	Name  string
	Score Score
	// Elo is the Elo implied by the engine's total score against its
	// opponents (it says nothing of opponents' strengths).
	Elo EloEstimate
}

// Tournament is the outcome of RunTournament.
type Tournament struct {
	Pairing Pairing
	// Reports are the matches in Pairs order (up to the one that
	// failed).
	Reports []*Report
	// Standings are sorted by score ratio, best first.
	Standings []Standing
}

// PairDir is the records folder of the match of a against b under dir.
func PairDir(dir, a, b string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '/' || r == '\\' || r == ' ' || r == ':' {
				return '_'
			}
			return r
		}, s)
	}
	return filepath.Join(dir, clean(a)+"-vs-"+clean(b))
}

// RunTournament plays the matches of engines by pairing, one after the
// other, each as Run plays base with the two engines in it (and with
// records, if base.RecordsDir is set, in PairDir's folder, so that
// base.Resume resumes the whole tournament). onMatch, if set, is called
// before each match. Names must differ.
func RunTournament(ctx context.Context, base Config, engines []EngineSpec, pairing Pairing, onMatch func(a, b int)) (*Tournament, error) {
	if len(engines) < 2 {
		return nil, fmt.Errorf("match: a tournament needs at least 2 engines (got %d)", len(engines))
	}
	seen := map[string]bool{}
	for _, e := range engines {
		if seen[e.Name] {
			return nil, fmt.Errorf("match: two engines are named %q: give them different name= fields", e.Name)
		}
		seen[e.Name] = true
	}
	t := &Tournament{Pairing: pairing}
	totals := make([]Score, len(engines))
	defer func() {
		for i, e := range engines {
			t.Standings = append(t.Standings, Standing{Name: e.Name, Score: totals[i], Elo: totals[i].Elo()})
		}
		sort.SliceStable(t.Standings, func(i, j int) bool {
			ri, rj := t.Standings[i].Score.Ratio(), t.Standings[j].Score.Ratio()
			return ri > rj || (ri == rj && t.Standings[i].Score.Games() > t.Standings[j].Score.Games())
		})
	}()
	for _, pr := range pairing.Pairs(len(engines)) {
		cfg := base
		cfg.Engines = [2]EngineSpec{engines[pr[0]], engines[pr[1]]}
		if base.RecordsDir != "" {
			cfg.RecordsDir = PairDir(base.RecordsDir, engines[pr[0]].Name, engines[pr[1]].Name)
		}
		if onMatch != nil {
			onMatch(pr[0], pr[1])
		}
		rep, err := Run(ctx, cfg)
		if rep != nil {
			t.Reports = append(t.Reports, rep)
			s := rep.Summary.Score
			totals[pr[0]].Wins += s.Wins
			totals[pr[0]].Draws += s.Draws
			totals[pr[0]].Losses += s.Losses
			totals[pr[1]].Wins += s.Losses
			totals[pr[1]].Draws += s.Draws
			totals[pr[1]].Losses += s.Wins
		}
		if err != nil {
			return t, err
		}
	}
	return t, nil
}
