// Package version says which rpshogi a binary is, for --version and the
// engine's USI name: the module version and the VCS commit it was built
// from (runtime/debug.ReadBuildInfo), and the digest of the tables
// compiled into it (tables.Digest), so that two binaries that search with
// the same numbers can be told apart from two that do not.
package version

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/rpshogi/rpshogi/tables"
)

// Info identifies a binary.
type Info struct {
	Module    string // module path
	Version   string // module version, "(devel)" for a build in the source tree
	Commit    string // VCS revision ("" when not recorded, e.g. go run or -buildvcs=false)
	Time      string // commit time
	Modified  bool   // the tree had uncommitted changes
	GoVersion string
	// Tables is tables.Digest(); Table and Model are the generated
	// files' own digests (tables.Source, tables.ModelDigest).
	Tables, Table, Model string
}

// Get returns the Info of the running binary.
func Get() Info {
	i := Info{Module: "github.com/rpshogi/rpshogi", Version: "(devel)", Tables: tables.Digest(),
		Table: tables.Source, Model: tables.ModelDigest}
	if bi, ok := debug.ReadBuildInfo(); ok {
		i = fromBuildInfo(bi, i)
	}
	return i
}

// fromBuildInfo fills i from bi.
func fromBuildInfo(bi *debug.BuildInfo, i Info) Info {
	if bi.Main.Path != "" {
		i.Module = bi.Main.Path
	}
	if bi.Main.Version != "" {
		i.Version = bi.Main.Version
	}
	i.GoVersion = bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			i.Commit = s.Value
		case "vcs.time":
			i.Time = s.Value
		case "vcs.modified":
			i.Modified = s.Value == "true"
		}
	}
	return i
}

// Short is one line: the version or, for a build in the source tree, the
// commit's first 12 hex digits ("+dirty" when modified), and the first 12
// of the tables' digest: "v1.2.0 tables 0123456789ab".
func (i Info) Short() string {
	v := i.Version
	if v == "(devel)" || v == "" {
		v = "devel"
		if i.Commit != "" {
			v = i.Commit[:min(12, len(i.Commit))]
			if i.Modified {
				v += "+dirty"
			}
		}
	}
	return v + " tables " + strings.TrimPrefix(i.Tables, "sha256:")[:12]
}

// String is the text of --version, one field a line, for the binary
// named name.
func (i Info) String(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", name, i.Version)
	fmt.Fprintf(&b, "module  %s\n", i.Module)
	commit := i.Commit
	switch {
	case commit == "":
		commit = "unknown (not recorded in this build)"
	case i.Modified:
		commit += " (modified)"
	}
	fmt.Fprintf(&b, "commit  %s\n", commit)
	if i.Time != "" {
		fmt.Fprintf(&b, "date    %s\n", i.Time)
	}
	fmt.Fprintf(&b, "go      %s\n", i.GoVersion)
	fmt.Fprintf(&b, "tables  %s\n", i.Tables)
	fmt.Fprintf(&b, "  table %s\n", i.Table)
	fmt.Fprintf(&b, "  model %s\n", i.Model)
	return b.String()
}
