package archive

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	engine "github.com/padinterview/padapi/internal/app/archive"
	"github.com/spf13/cobra"
)

// VerifyOptions are what padctl archive verify runs with.
type VerifyOptions struct {
	IO   *iostreams.IOStreams
	Dir  string
	JSON bool
}

// NewCmdVerify returns padctl archive verify. runF, when not nil, runs
// instead of verifyRun.
func NewCmdVerify(f *cmdutil.Factory, runF func(*VerifyOptions) error) *cobra.Command {
	o := &VerifyOptions{}
	return &cobra.Command{
		Use:   "verify DIR",
		Short: "Check every file of an archive against its index",
		Long: `Check every file that DIR/index.jsonl names against its SHA-256, and look for
files and pad folders the index does not name. Sends no request and writes
nothing. Each difference is printed on stdout, one a line ("PATH: missing",
"PATH: changed", "PATH: not in the index"), and the command exits 1; it exits
0 when the archive matches its index, and 2 when DIR is not an archive.
With --json the differences are one JSON array of {"path", "problem"}.`,
		Example: `  padctl archive verify interviews
  padctl archive verify /srv/interviews || mail -s "archive differs" ops@example.com`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.IO, o.Dir, o.JSON = f.IOStreams, args[0], f.Flags.JSON
			if runF != nil {
				return runF(o)
			}
			return verifyRun(o)
		},
	}
}

// difference is one line of verify --json.
type difference struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// verifyRun checks o.Dir and prints each difference.
func verifyRun(o *VerifyOptions) error {
	diffs, err := engine.Verify(o.Dir)
	switch {
	case errors.Is(err, engine.ErrNotArchive):
		return cmdutil.UsageErrorf("%s: %s", o.Dir, engine.ErrNotArchive)
	case err != nil:
		return fmt.Errorf("%s: %w", o.Dir, err)
	}
	if o.JSON {
		out := make([]difference, len(diffs))
		for i, d := range diffs {
			out[i] = difference{d.Path, d.Problem}
		}
		b, err := json.Marshal(out)
		if err != nil {
			return err
		}
		fmt.Fprintf(o.IO.Out, "%s\n", b)
	} else {
		for _, d := range diffs {
			fmt.Fprintf(o.IO.Out, "%s: %s\n", iostreams.Escape(d.Path, iostreams.Line), iostreams.Escape(d.Problem, iostreams.Line))
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%d differences between %s and its index", len(diffs), o.Dir)
	}
	if o.IO.ErrTTY {
		cmdutil.Note(o.IO, "every file of %s matches its index", o.Dir)
	}
	return nil
}
