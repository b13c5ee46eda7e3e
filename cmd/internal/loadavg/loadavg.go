// Package loadavg reads the machine's load averages, which the
// measuring tools (cmd/internal/scalebench, the lab's experiments) record
// beside their figures: a time measured on a loaded machine says little
// without the load.
package loadavg

import (
	"os"
	"strings"
)

// Read returns the 1, 5 and 15 minute load averages as /proc/loadavg
// gives them, space-separated ("0.52 0.61 0.70"), or "" where the system
// has no such file.
func Read() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
