package version

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/tables"
)

// TestFromBuildInfo checks the fields read from the build information and
// the short form, for a release, a clean and a modified tree, and a build
// without VCS information.
func TestFromBuildInfo(t *testing.T) {
	base := Info{Version: "(devel)", Tables: "sha256:" + strings.Repeat("ab", 32)}
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-11-24T14:00:00Z"}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name     string
		bi       debug.BuildInfo
		short    string
		modified bool
	}{
		{"release", debug.BuildInfo{Main: debug.Module{Path: "github.com/rpshogi/rpshogi", Version: "v1.2.0"}}, "v1.2.0 tables abababababab", false},
		{"clean tree", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef0123", "false")}, "0123456789ab tables abababababab", false},
		{"modified tree", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef0123", "true")}, "0123456789ab+dirty tables abababababab", true},
		{"no vcs", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel tables abababababab", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := fromBuildInfo(&tt.bi, base)
			if i.Short() != tt.short || i.Modified != tt.modified {
				t.Errorf("Short() = %q, modified %v; want %q, %v", i.Short(), i.Modified, tt.short, tt.modified)
			}
		})
	}
}

// TestGet checks that the running binary's Info carries the compiled
// tables' digests.
func TestGet(t *testing.T) {
	i := Get()
	if i.Tables != tables.Digest() || i.Table != tables.Source || i.Model != tables.ModelDigest {
		t.Errorf("Get() = %+v", i)
	}
	s := i.String("rpshogi")
	for _, want := range []string{"rpshogi ", "\nmodule  github.com/rpshogi/rpshogi\n", "\ncommit  ", "\ntables  " + tables.Digest() + "\n", "\n  model " + tables.ModelDigest + "\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("String lacks %q:\n%s", want, s)
		}
	}
}
