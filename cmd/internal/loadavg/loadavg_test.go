package loadavg

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		if got := Read(); got != "" {
			t.Fatalf("without /proc/loadavg: %q, want \"\"", got)
		}
		t.Skip("no /proc/loadavg on this system")
	}
	got := Read()
	f := strings.Fields(got)
	if len(f) != 3 || strings.Join(f, " ") != got {
		t.Fatalf("%q: want three space-separated load averages", got)
	}
	for _, s := range f {
		if v, err := strconv.ParseFloat(s, 64); err != nil || v < 0 {
			t.Fatalf("%q: %q is not a load average", got, s)
		}
	}
}
