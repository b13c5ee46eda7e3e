//go:build !unix

package selfplaydir

import "time"

// ProcessCPU returns the CPU time of this process so far; it is not
// known on this system (ok false).
func ProcessCPU() (cpu time.Duration, ok bool) { return 0, false }
