//go:build !unix

package modelfit

import "time"

// processCPU is not known on this system.
func processCPU() (time.Duration, bool) { return 0, false }
