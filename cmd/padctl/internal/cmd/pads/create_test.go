// create_test.go: the flags of pads create (pads.go).

package pads_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/pads"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

// pads create's flags become its params, alone: only the flags given are
// set (so --private=false is sent as false), and nothing is sent.
func TestCreateFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	for _, tc := range []struct {
		args []string
		want padapi.PadCreateParams
	}{
		{nil, padapi.PadCreateParams{}},
		{[]string{"--title", "T", "--private=false", "--question", "12"},
			padapi.PadCreateParams{Title: padapi.Ptr("T"), Private: padapi.Ptr(false), QuestionID: padapi.Ptr(padapi.ID("12"))}},
		{[]string{"--contents", "", "--owner", "o@example.com", "--execution"},
			padapi.PadCreateParams{Contents: padapi.Ptr(""), UserEmail: padapi.Ptr("o@example.com"), ExecutionEnabled: padapi.Ptr(true)}},
	} {
		var got *pads.CreateOptions
		cmd := pads.NewCmdCreate(f, func(o *pads.CreateOptions) error { got = o; return nil })
		cmd.SetArgs(tc.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if diff := cmp.Diff(tc.want, got.Params); diff != "" {
			t.Errorf("%q: params (-want +got):\n%s", tc.args, diff)
		}
	}
}
