package report

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Match is a match's result as "rpshogi match --json" prints it, from
// the first engine's point of view.
type Match struct {
	File                    string
	Engines                 []string
	Wins, Draws, Losses     int
	Score                   float64
	Elo, EloLow, EloHigh    float64 // ±Inf when infinite (null in the JSON), NaN with no game
	LOS                     float64
	TimeLosses, Interrupted int
}

// Name is "A vs B".
func (m *Match) Name() string { return strings.Join(m.Engines, " vs ") }

// Games is the number of scored games.
func (m *Match) Games() int { return m.Wins + m.Draws + m.Losses }

type matchFile struct {
	Engines []struct {
		Name string `json:"name"`
	} `json:"engines"`
	Wins        int            `json:"wins"`
	Draws       int            `json:"draws"`
	Losses      int            `json:"losses"`
	Interrupted int            `json:"interrupted"`
	TimeLosses  map[string]int `json:"time_losses"`
	Score       *float64       `json:"score"`
	Elo         *float64       `json:"elo"`
	EloLow      *float64       `json:"elo_low"`
	EloHigh     *float64       `json:"elo_high"`
	LOS         *float64       `json:"los"`
}

// readMatches reads the match JSON at path, or every *.json of the
// folder path (in name order) that is a match's.
func readMatches(path string) ([]Match, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("report: --match: %w", err)
	}
	if !fi.IsDir() {
		m, err := readMatch(path)
		if err != nil {
			return nil, err
		}
		return []Match{*m}, nil
	}
	names, err := filepath.Glob(filepath.Join(path, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	sort.Strings(names)
	var out []Match
	for _, n := range names {
		m, err := readMatch(n)
		if err != nil {
			continue // another JSON file of the folder
		}
		out = append(out, *m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("report: --match %s: no match JSON (rpshogi match --json) in the folder", path)
	}
	return out, nil
}

func readMatch(path string) (*Match, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var f matchFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("report: %s: not a match JSON: %w", path, err)
	}
	if len(f.Engines) < 2 {
		return nil, fmt.Errorf("report: %s: not a match JSON (no engines)", path)
	}
	num := func(p *float64) float64 {
		if p == nil {
			return math.NaN()
		}
		return *p
	}
	m := &Match{File: path, Wins: f.Wins, Draws: f.Draws, Losses: f.Losses, Interrupted: f.Interrupted,
		Score: num(f.Score), Elo: num(f.Elo), EloLow: num(f.EloLow), EloHigh: num(f.EloHigh), LOS: num(f.LOS)}
	if m.Games() > 0 {
		// JSON has no infinity: null stands for an infinite Elo (a score
		// of 0% or 100%) or bound.
		if f.Elo == nil && !math.IsNaN(m.Score) {
			m.Elo = math.Inf(1)
			if m.Score < 0.5 {
				m.Elo = math.Inf(-1)
			}
		}
		if f.EloLow == nil {
			m.EloLow = math.Inf(-1)
		}
		if f.EloHigh == nil {
			m.EloHigh = math.Inf(1)
		}
	}
	for _, e := range f.Engines {
		m.Engines = append(m.Engines, e.Name)
	}
	for _, n := range f.TimeLosses {
		m.TimeLosses += n
	}
	return m, nil
}
