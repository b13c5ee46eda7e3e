// Command rpshogi is the rpshogi command line: every step of the pipeline
// (ingest, train, tables, build-engine, pipeline), record tools (show,
// convert), analysis (categories, classify, evaluate, cra, sql) and the
// USI engine (usi), plus perft.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	os.Exit(int(run()))
}

func run() exitCode {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ios := &iostreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	return execute(ctx, ios, os.Args[1:])
}
