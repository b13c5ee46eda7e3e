package main

import (
	"strings"

	"github.com/rpshogi/rpshogi/categorize/features"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/spf13/cobra"
)

// flagValues are the values of the enumerated flags, by flag name, for
// shell completion ("rpshogi completion bash"); list flags complete each
// comma-separated item.
func flagValues() map[string]struct {
	values []string
	list   bool
} {
	type vals = struct {
		values []string
		list   bool
	}
	var formats, results, groups []string
	for f := kifu.FormatUnknown + 1; f.String() != "unknown"; f++ {
		formats = append(formats, f.String())
	}
	for _, k := range ingest.EndKinds() {
		results = append(results, k.String())
	}
	for g := range features.GroupNB {
		groups = append(groups, g.String())
	}
	return map[string]vals{
		"handicap":      {values: []string{"exclude\teven games only", "include\tevery start position", "only\tany start but the even game"}},
		"to":            {values: formats},
		"csa-version":   {values: []string{"2.2", "3.0"}},
		"subset":        {values: []string{"all", "odd", "even"}},
		"algorithms":    {values: []string{"simple", "ordered", "cra", "cra-prob"}, list: true},
		"result":        {values: results, list: true},
		"without":       {values: groups, list: true},
		"entering-king": {values: kifu.EnteringKingRuleNames()},
	}
}

// registerCompletions registers the completion of the enumerated flags
// (flagValues) and of --db (SQLite files) on every command of root.
func registerCompletions(root *cobra.Command) {
	values := flagValues()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, v := range values {
			if f := c.Flags().Lookup(name); f == nil || !strings.HasPrefix(f.Value.Type(), "string") {
				continue // not this flag (cra's --to is a move number)
			}
			c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
				done, dir := "", cobra.ShellCompDirectiveNoFileComp
				if v.list {
					done = typed[:strings.LastIndexByte(typed, ',')+1] // the items already typed
					dir |= cobra.ShellCompDirectiveNoSpace
				}
				var out []string
				for _, s := range v.values {
					if strings.HasPrefix(done+s, typed) && !strings.Contains(","+done, ","+strings.Split(s, "\t")[0]+",") {
						out = append(out, done+s)
					}
				}
				return out, dir
			})
		}
		if c.Flags().Lookup("db") != nil {
			c.RegisterFlagCompletionFunc("db", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return []string{"sqlite", "sqlite3", "db"}, cobra.ShellCompDirectiveFilterFileExt
			})
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}
