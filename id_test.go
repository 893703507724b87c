// id_test.go: tests of the ID type: decoding numbers and strings, marshalling.

package padapi_test

import (
	"encoding/json"
	"testing"

	"github.com/padinterview/padapi"
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
