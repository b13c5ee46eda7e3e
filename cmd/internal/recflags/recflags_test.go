package recflags

import (
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/spf13/pflag"
)

// TestOptions checks the ingest options the flags give and the error of
// each kind of bad value.
func TestOptions(t *testing.T) {
	tests := []struct {
		args []string
		err  string
		test func(o ingest.Options) bool
	}{
		{[]string{"--max-file-size", "1M", "--max-line", "512k", "--max-total", "2GiB", "--max-depth", "3"}, "", func(o ingest.Options) bool {
			return o.Limits.MaxFileBytes == 1<<20 && o.Limits.MaxLineBytes == 512<<10 && o.Limits.MaxTotalBytes == 2<<30 && o.Limits.MaxDepth == 3
		}},
		{[]string{"--handicap", "only", "--since", "2015", "--until", "2016-02", "--result", "resign,mate"}, "", func(o ingest.Options) bool {
			return o.Filter.Handicap == ingest.HandicapOnly && o.Filter.Since != "" && o.Filter.Until != "" && len(o.Filter.Results) == 2
		}},
		{nil, "", func(o ingest.Options) bool { return o.Filter.Handicap == ingest.HandicapExclude }},
		{[]string{"--max-line", "3GiB"}, "--max-line 3GiB is more than 2GiB", nil},
		{[]string{"--max-file-size", "lots"}, `--max-file-size: want a size like 64MiB, 512k or 65536, got "lots"`, nil},
		{[]string{"--max-total", "0"}, "--max-total: want a size", nil},
		{[]string{"--handicap", "some"}, `--handicap: want include, exclude or only, got "some"`, nil},
		{[]string{"--since", "2016", "--until", "2015"}, "is after --until", nil},
		{[]string{"--since", "yesterday"}, "--since: want yyyy-mm-dd", nil},
		{[]string{"--result", "bogus"}, "--result: ", nil},
		{[]string{"--workers", "-1"}, "--workers must be 0 or more", nil},
		{[]string{"--min-plies", "-1"}, "--min-plies must be 0 or more", nil},
	}
	for _, tt := range tests {
		var f Flags
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		f.Register(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		o, err := f.Options()
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%v: error %v, want %q", tt.args, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%v: %v", tt.args, err)
		case tt.test != nil && !tt.test(o):
			t.Errorf("%v: options %+v", tt.args, o)
		}
	}
}
