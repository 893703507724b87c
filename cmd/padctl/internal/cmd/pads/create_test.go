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

// The interview controls' flags: --interviewer repeats into the access
// list (sent as JSON), --clear-interviewers sends it empty, the others are
// sent only when given; an empty email or both list flags are usage errors.
func TestControlFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	var create *pads.CreateOptions
	cmd := pads.NewCmdCreate(f, func(o *pads.CreateOptions) error { create = o; return nil })
	cmd.SetArgs([]string{"--interviewer", "a@x.io", "--interviewer", "b@x.io", "--restrict-interviewers", "--disable-coaching-tips=false",
		"--take-home", "--take-home-minutes", "90", "--ai-assist=false", "--team", "T1"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := padapi.PadCreateParams{AllowedInterviewerEmails: []string{"a@x.io", "b@x.io"}, RestrictInterviewerAccess: padapi.Ptr(true),
		DisableCoachingTips: padapi.Ptr(false), TakeHome: padapi.Ptr(true), TakeHomeMinutes: padapi.Ptr(90), AIAssistEnabled: padapi.Ptr(false),
		TeamID: padapi.Ptr[padapi.ID]("T1")}
	if diff := cmp.Diff(want, create.Params); diff != "" {
		t.Errorf("create params (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		args []string
		want padapi.PadUpdateParams
	}{
		{[]string{"P", "--clear-interviewers"}, padapi.PadUpdateParams{AllowedInterviewerEmails: []string{}}},
		{[]string{"P", "--interviewer", "a@x.io", "--owner", "o@x.io", "--restrict-interviewers=false"},
			padapi.PadUpdateParams{AllowedInterviewerEmails: []string{"a@x.io"}, UserEmail: padapi.Ptr("o@x.io"), RestrictInterviewerAccess: padapi.Ptr(false)}},
		{[]string{"P", "--disable-coaching-tips"}, padapi.PadUpdateParams{DisableCoachingTips: padapi.Ptr(true)}},
	} {
		var got *pads.UpdateOptions
		cmd := pads.NewCmdUpdate(f, func(o *pads.UpdateOptions) error { got = o; return nil })
		cmd.SetArgs(tc.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if diff := cmp.Diff(tc.want, got.Params); diff != "" {
			t.Errorf("%q: params (-want +got):\n%s", tc.args, diff)
		}
	}
	for _, args := range [][]string{{"P", "--interviewer", "a@x.io", "--clear-interviewers"}, {"P", "--interviewer", " "}} {
		cmd := pads.NewCmdUpdate(f, func(*pads.UpdateOptions) error { t.Errorf("%q ran", args); return nil })
		cmd.SetArgs(args)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		if err := cmd.Execute(); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
