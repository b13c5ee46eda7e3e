package main

import (
	"context"
	"fmt"

	"github.com/rpshogi/rpshogi/cmd/internal/match"
)

// runTournament plays the --tournament of opts.Players: each match's
// summary (or JSON object), then the standings.
func runTournament(ctx context.Context, opts *matchOptions, cfg match.Config) error {
	pairing, _ := match.ParsePairing(opts.Tournament) // checked
	errOut := opts.IO.ErrOut
	tour, err := match.RunTournament(ctx, cfg, opts.Players, pairing, func(a, b int) {
		if !opts.Quiet {
			fmt.Fprintf(errOut, "match: %s vs %s\n", opts.Players[a].Name, opts.Players[b].Name)
		}
	})
	if tour == nil {
		return err
	}
	ply := 0
	if len(opts.Openings) > 0 {
		ply = opts.OpeningPly
	}
	if werr := match.WriteTournament(opts.IO.Out, cfg, opts.Players, pairing, tour, ply, opts.JSON); werr != nil && err == nil {
		err = werr
	}
	return err
}
