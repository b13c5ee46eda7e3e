// Command rpshogi-engine is the rpshogi USI engine: realization-probability
// search with the move-category probabilities compiled into the binary.
// Start it from a shogi GUI, or type USI commands ("usi", "isready",
// "position startpos", "go byoyomi 1000"). "rpshogi-engine --version"
// prints its version, commit and the digest of its compiled tables; its
// USI name carries them too.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/rpshogi/rpshogi/cmd/internal/version"
	"github.com/rpshogi/rpshogi/engine"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs the engine with the command-line arguments args and returns
// the exit status.
func run(args []string, in io.Reader, out, errOut io.Writer) int {
	info := version.Get()
	switch {
	case len(args) == 1 && (args[0] == "--version" || args[0] == "-version"):
		fmt.Fprint(out, info.String("rpshogi-engine"))
		return 0
	case len(args) > 0:
		fmt.Fprintf(errOut, "rpshogi-engine: unknown argument %q: the engine speaks USI on standard input (--version prints its version)\n", args[0])
		return 2
	}
	cfg := engine.DefaultConfig()
	cfg.Name += " " + info.Short()
	if err := engine.RunUSI(in, out, cfg); err != nil {
		fmt.Fprintln(errOut, err)
		return 1
	}
	return 0
}
