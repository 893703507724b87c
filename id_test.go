// id_test.go: tests of the ID type: decoding numbers and strings, marshalling.

package padapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

func TestIDDecode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      string
		want    padapi.ID
		wantErr bool
	}{
		{in: `123`, want: "123"},
		{in: `"123"`, want: "123"},
		{in: `"abc"`, want: "abc"},
		{in: `"../quota"`, want: "../quota"},
		{in: `0`, want: "0"},
		{in: `null`, want: ""},
		{in: `1.5`, wantErr: true},
		{in: `-1`, wantErr: true},
		{in: `1e3`, wantErr: true},
		{in: `true`, wantErr: true},
		{in: `{}`, wantErr: true},
		{in: `[1]`, wantErr: true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			var q padapi.Question
			err := padapi.UnmarshalForTest([]byte(`{"id":`+tc.in+`}`), &q)
			if tc.wantErr {
				if err == nil {
					t.Errorf("id %s decoded as %q, want an error", tc.in, q.ID)
				}
				return
			}
			if err != nil || q.ID != tc.want {
				t.Errorf("id %s: got %q, %v; want %q", tc.in, q.ID, err, tc.want)
			}
		})
	}
}

func TestIDMarshal(t *testing.T) {
	t.Parallel()
	for id, want := range map[padapi.ID]string{
		"123":                  `123`,
		"0":                    `0`,
		"9007199254740993":     `9007199254740993`,
		"abc":                  `"abc"`,
		"0123":                 `"0123"`,
		"12a":                  `"12a"`,
		"":                     `""`,
		"12345678901234567890": `"12345678901234567890"`,
	} {
		b, err := json.Marshal(id)
		if err != nil || string(b) != want {
			t.Errorf("Marshal(ID(%q)) = %s, %v; want %s", id, b, err, want)
		}
	}
}

// Each ID marshals the way the service sends its field: a pad's, a team's
// and a custom file's ID as a JSON string however it looks, the IDs the
// service sends as numbers as numbers.
func TestIDMarshalPerField(t *testing.T) {
	t.Parallel()
	pad := padapi.Pad{
		ID: "12345678", Team: &padapi.Team{ID: "42", Name: "T"}, QuestionIDs: []padapi.ID{"7"},
		PadEnvironmentIDs: []padapi.ID{"8"}, ActiveEnvironmentID: padapi.Ptr[padapi.ID]("8"),
	}
	q := padapi.Question{ID: "9", CustomFiles: []padapi.CustomFile{{ID: "10"}}}
	for v, id := range map[any]string{&pad: `"12345678"`, &q: `9`} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for key, want := range map[string]string{
			"id": id, "team": `{"id":"42","name":"T"}`,
			"question_ids": `[7]`, "pad_environment_ids": `[8]`, "active_environment_id": `8`,
			"custom_files": `[{"id":"10","title":"","description":"","filename":"","filesize":""}]`,
		} {
			if got, ok := m[key]; ok && string(got) != want {
				t.Errorf("%T: %q is %s, want %s", v, key, got, want)
			}
		}
	}
}

// An all-digit pad ID goes out of the fake as a JSON string, as the live
// service sends every pad ID: over a list of pads whose IDs are all
// digits, and the fake's seeded pads, 0 pad IDs come as numbers.
func TestFakeSendsPadIDsAsStrings(t *testing.T) {
	t.Parallel()
	srv := padapitest.NewServer(t, padapitest.WithPageSize(7))
	for i := range 20 {
		srv.AddPad(padapi.Pad{ID: padapi.ID(fmt.Sprintf("%08d", 10000000+i)), Title: "digits"})
	}
	srv.Seed(30)
	c := srv.Client()
	n, numbers := 0, 0
	for it, err := range padapi.WithJSON(context.Background(), func(ctx context.Context) iter.Seq2[*padapi.Pad, error] {
		return c.Pads.All(ctx, nil)
	}) {
		if err != nil {
			t.Fatal(err)
		}
		var item struct{ ID json.RawMessage }
		if err := json.Unmarshal(it.JSON, &item); err != nil {
			t.Fatal(err)
		}
		n++
		if item.ID[0] != '"' {
			numbers++
			t.Errorf("pad %s went out as %s", it.Value.ID, item.ID)
		}
	}
	if n < 50 || numbers != 0 {
		t.Errorf("%d pads listed, %d IDs as numbers; want at least 50, none", n, numbers)
	}
}
