// Command rpshogi-engine is the rpshogi USI engine: realization-probability
// search with the move-category probabilities compiled into the binary.
// Start it from a shogi GUI, or type USI commands ("usi", "isready",
// "position startpos", "go byoyomi 1000").
package main

import (
	"fmt"
	"os"

	"github.com/rpshogi/rpshogi/engine"
)

func main() {
	if err := engine.RunUSI(os.Stdin, os.Stdout, engine.DefaultConfig()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
