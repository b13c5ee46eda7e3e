// Command benchgames writes the random-game collections of the ingest
// and train benchmarks (BenchmarkIngest, BenchmarkTrain) to a folder, so
// that the rpshogi binary can be measured on the same games, for example
// its peak memory:
//
//	go run ./cmd/internal/benchgames -for ingest -o /tmp/ingest-10k
//	/usr/bin/time -v rpshogi ingest /tmp/ingest-10k --db /tmp/i.sqlite
//	go run ./cmd/internal/benchgames -for train -n 1000 -o /tmp/train-1k
//	/usr/bin/time -v rpshogi train /tmp/train-1k --db /tmp/t.sqlite
//
// The games are kifutest.IngestBenchGame and kifutest.TrainBenchGame: the
// same index gives the same game, as KIF, CSA and KI2 in turn, 1000 files
// per sub-folder. It is a development tool, not part of rpshogi.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "benchgames:", err)
		}
		os.Exit(2)
	}
}

// run writes the collection the flags in args name, reporting on w.
func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("benchgames", flag.ContinueOnError)
	fs.SetOutput(w)
	kind := fs.String("for", "", "the benchmark whose games to write: ingest or train")
	n := fs.Int("n", 10_000, "the number of games (the benchmarks use 1,000 and 10,000)")
	out := fs.String("o", "", "the folder to write them to (created if missing)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	games := map[string]func(int) *kifu.Record{"ingest": kifutest.IngestBenchGame, "train": kifutest.TrainBenchGame}[*kind]
	switch {
	case games == nil:
		return fmt.Errorf("-for: want ingest or train, got %q", *kind)
	case *out == "" || fs.NArg() > 0:
		return fmt.Errorf("give the folder with -o DIR (and no argument)")
	case *n < 1:
		return fmt.Errorf("-n must be at least 1")
	}
	if err := kifutest.WriteGames(*out, *n, games); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %d games of the %s benchmark to %s\n", *n, *kind, *out)
	return nil
}
