package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/rpshogi/rpshogi/cmd/internal/match"
)

// runTournament plays the --tournament of opts.Players: each match's
// summary (or JSON object), then the standings.
func runTournament(ctx context.Context, opts *matchOptions, cfg match.Config) error {
	pairing, _ := match.ParsePairing(opts.Tournament) // checked
	out, errOut := opts.IO.Out, opts.IO.ErrOut
	tour, err := match.RunTournament(ctx, cfg, opts.Players, pairing, func(a, b int) {
		if !opts.Quiet {
			fmt.Fprintf(errOut, "match: %s vs %s\n", opts.Players[a].Name, opts.Players[b].Name)
		}
	})
	if tour == nil {
		return err
	}
	type standingJSON struct {
		Name    string    `json:"name"`
		W       [3]int    `json:"wins_draws_losses"`
		Score   jsonFloat `json:"score"`
		Elo     jsonFloat `json:"elo"`
		EloLow  jsonFloat `json:"elo_low"`
		EloHigh jsonFloat `json:"elo_high"`
	}
	var js struct {
		Pairing   string         `json:"pairing"`
		Matches   []matchJSON    `json:"matches"`
		Standings []standingJSON `json:"standings"`
	}
	js.Pairing = string(pairing)
	for _, rep := range tour.Reports {
		c := cfg
		c.Engines = [2]match.EngineSpec{}
		for _, p := range opts.Players {
			for i, n := range rep.Summary.Engines {
				if p.Name == n {
					c.Engines[i] = p
				}
			}
		}
		if cfg.RecordsDir != "" {
			c.RecordsDir = match.PairDir(cfg.RecordsDir, c.Engines[0].Name, c.Engines[1].Name)
		}
		if opts.JSON {
			js.Matches = append(js.Matches, matchToJSON(opts, &c, rep))
			continue
		}
		if werr := writeMatchSummary(out, &c, rep); werr != nil {
			return werr
		}
		fmt.Fprintln(out)
	}
	if !opts.JSON {
		fmt.Fprintf(out, "Standings (%s):\n", pairing)
	}
	for i, s := range tour.Standings {
		if opts.JSON {
			js.Standings = append(js.Standings, standingJSON{Name: s.Name, W: [3]int{s.Score.Wins, s.Score.Draws, s.Score.Losses},
				Score: jsonFloat(s.Score.Ratio()), Elo: jsonFloat(s.Elo.Elo), EloLow: jsonFloat(s.Elo.Low), EloHigh: jsonFloat(s.Elo.High)})
			continue
		}
		fmt.Fprintf(out, "%2d. %-16s %d - %d - %d [%.3f] Elo %s [%s, %s]\n", i+1, s.Name, s.Score.Wins, s.Score.Losses, s.Score.Draws,
			s.Score.Ratio(), signed(s.Elo.Elo), signed(s.Elo.Low), signed(s.Elo.High))
	}
	if opts.JSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if werr := enc.Encode(js); werr != nil {
			return werr
		}
	}
	return err
}
