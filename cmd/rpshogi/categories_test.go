package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/categorize"
)

func TestCategoriesFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"no arguments", nil, false},
		{"an argument", []string{"extra"}, true},
		{"an unknown flag", []string{"--verbose"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ios := &iostreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
			ran := false
			cmd := newCategoriesCmd(ios, func(ctx context.Context, o *categoriesOptions) error {
				ran = true
				return nil
			})
			cmd.SetArgs(tc.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			if ran == tc.wantErr {
				t.Errorf("run called %v", ran)
			}
		})
	}
}

func TestRunCategories(t *testing.T) {
	var out bytes.Buffer
	if err := runCategories(context.Background(), &categoriesOptions{IO: &iostreams{Out: &out}}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != categorize.Count() {
		t.Fatalf("%d lines, want %d", len(lines), categorize.Count())
	}
	tests := []struct {
		id   int
		line string
	}{
		{0, "0\trecapture/gain+1\trecapture\tgain+1"},
		{7, "7\tcapture/gain+1\tcapture\tgain+1"},
		{16, "16\tcheck/loss\tcheck\tloss"},
	}
	for _, tc := range tests {
		if lines[tc.id] != tc.line {
			t.Errorf("line %d: %q, want %q", tc.id, lines[tc.id], tc.line)
		}
	}
	for i, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 4 || f[1] != categorize.List()[i].Name {
			t.Errorf("line %d: %q", i, l)
		}
		if categorize.List()[i].Family == categorize.FamEscape && f[3] != "-" {
			t.Errorf("line %d: an escape category has grade %q", i, f[3])
		}
	}
}

func TestExecuteCategories(t *testing.T) {
	var out, errOut bytes.Buffer
	code := execute(context.Background(), &iostreams{Out: &out, ErrOut: &errOut}, []string{"categories"})
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if n := strings.Count(out.String(), "\n"); n != categorize.Count() {
		t.Errorf("%d lines, want %d", n, categorize.Count())
	}
}
