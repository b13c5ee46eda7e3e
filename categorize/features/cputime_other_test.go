//go:build !unix

package features

import "time"

// processCPU is not known on this system.
func processCPU() (time.Duration, bool) { return 0, false }
