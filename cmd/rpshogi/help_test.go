package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestUnknownCommand: an unknown command is a usage error (exit 2) at
// the root and under a command group; a group alone prints its help.
func TestUnknownCommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code exitCode
		want string
	}{
		{[]string{"nosuch"}, exitUsage, `unknown command "nosuch" for "rpshogi"`},
		{[]string{"sqll"}, exitUsage, "did you mean sql?"},
		{[]string{"model", "nosuch"}, exitUsage, `unknown command "nosuch" for "rpshogi model"`},
		{[]string{"tactics", "nosuch", "x"}, exitUsage, `unknown command "nosuch" for "rpshogi tactics"`},
		{[]string{"model"}, exitOK, ""},
		{[]string{}, exitOK, ""},
	} {
		code, _, errOut := runCmd(tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errOut, tt.code, tt.want)
		}
	}
}

// TestHelpCitesExistingFiles: the repository files the commands' help
// cites (data/..., docs/..., as examples) exist.
func TestHelpCitesExistingFiles(t *testing.T) {
	cited := regexp.MustCompile(`(?:^|[\s(])((?:data|docs|engine|kifu|tables|cmd|categorize|train|ingest)/[\w./-]+\.(?:tsv|go|md|kif|csa|cjs|sql))\b`)
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		for _, m := range cited.FindAllStringSubmatch(c.Long+"\n"+c.Example, -1) {
			n++
			if _, err := os.Stat(filepath.Join("..", "..", m[1])); err != nil {
				t.Errorf("%s --help cites %s: %v", c.CommandPath(), m[1], err)
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRootCmd(&iostreams{}))
	if n == 0 {
		t.Error("no help cites a file: the pattern is wrong")
	}
}

// TestHelpNamesJKF: the root's and show's help name JKF among the formats
// read.
func TestHelpNamesJKF(t *testing.T) {
	root := newRootCmd(&iostreams{})
	show, _, err := root.Find([]string{"show"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*cobra.Command{root, show} {
		if !strings.Contains(c.Long, "JKF") {
			t.Errorf("%s --help does not name JKF:\n%s", c.CommandPath(), c.Long)
		}
	}
}
