package main

import (
	"context"

	"github.com/rpshogi/rpshogi/cmd/internal/analysis"
	"github.com/spf13/cobra"
)

type categoriesOptions struct {
	IO *iostreams
}

func newCategoriesCmd(ios *iostreams, runF func(context.Context, *categoriesOptions) error) *cobra.Command {
	opts := &categoriesOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "categories",
		Short: "List the move categories: id, name, family and grade",
		Long: `categories prints the move categories, one per line, in id order:
the id, the name, the family and the grade ("-" for the families graded
by a piece: escape), separated by tabs. Ids are stable: they index the
probability table and the stores.`,
		Example: `  rpshogi categories
  rpshogi categories | grep '^[0-9]*	promote/'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runCategories(cmd.Context(), opts)
		},
	}
	return cmd
}

func runCategories(ctx context.Context, opts *categoriesOptions) error {
	return analysis.WriteCategories(opts.IO.Out)
}
