//go:build !unix

package nextmove

import "time"

// processCPUTime is not known on this system.
func processCPUTime() (time.Duration, bool) { return 0, false }
