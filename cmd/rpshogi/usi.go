package main

import (
	"context"

	"github.com/rpshogi/rpshogi/cmd/internal/version"
	"github.com/rpshogi/rpshogi/engine"
	"github.com/spf13/cobra"
)

type usiOptions struct {
	IO *iostreams
}

func newUSICmd(ios *iostreams, runF func(context.Context, *usiOptions) error) *cobra.Command {
	opts := &usiOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "usi",
		Short: "Run the engine on standard input and output (USI protocol)",
		Long: `usi runs the realization-probability engine, compiled with the
probability table of this binary, speaking the USI protocol on standard
input and output, exactly as the standalone rpshogi-engine binary does.
Point a shogi GUI at "rpshogi usi", or type "usi", "isready",
"position startpos", "go byoyomi 1000".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runUSI(cmd.Context(), opts)
		},
	}
	return cmd
}

func runUSI(ctx context.Context, opts *usiOptions) error {
	cfg := engine.DefaultConfig()
	cfg.Name += " " + version.Get().Short()
	return engine.RunUSI(opts.IO.In, opts.IO.Out, cfg)
}
