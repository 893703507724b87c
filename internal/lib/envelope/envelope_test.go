package envelope

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

var opts = jsontext.AllowInvalidUTF8(true)

func TestRead(t *testing.T) {
	t.Parallel()
	env, err := Read([]byte(`{"status":"OK","pads":[1],"total":1}`), "pads", true, opts)
	if err != nil || env.Status != "OK" || !env.HasNeed || env.Others != 2 {
		t.Errorf("Read(a page) = %+v, %v", env, err)
	}
	env, err = Read([]byte(`{"status":"ERROR","message":"no","code":404}`), "", true, opts)
	if err != nil || env.Status != "ERROR" || env.Message != "no" || env.Code != "404" || env.Others != 0 {
		t.Errorf("Read(an error) = %+v, %v", env, err)
	}
	for _, bad := range []string{
		`{"status":"OK","status":"ERROR","id":1}`, // a status given twice
		`{"status":"OK","id":1} {}`,               // data after the value
		`{"status":7,"id":1}`,                     // a status that is not a string
		`[1]`,                                     // not an object
		`{"status":"OK"`,                          // cut short
	} {
		if env, err := Read([]byte(bad), "id", true, opts); err == nil {
			t.Errorf("Read(%s) = %+v, want an error", bad, env)
		}
	}
	if env, err := Read([]byte(`{"id":null,"status":"OK"}`), "id", true, opts); err != nil || env.HasNeed {
		t.Errorf("Read(a null id) = %+v, %v; want no id", env, err)
	}
}

// page decodes the members of a list answer.
type page struct{ Items []int }

func (p *page) DecodeMember(dec *jsontext.Decoder, name string) error {
	if name == "items" {
		return json.UnmarshalDecode(dec, &p.Items)
	}
	return dec.SkipValue()
}

func (p *page) Reset() { *p = page{} }

func TestDecodeMembers(t *testing.T) {
	t.Parallel()
	var p page
	var env Envelope
	var err error
	WithDecoder(strings.NewReader(`{"items":[1,2],"status":"OK","total":2}`), opts, func(dec *jsontext.Decoder) {
		env, _, err = DecodeMembers(dec, "items", &p, opts)
	})
	if err != nil || env.Status != "OK" || !env.HasNeed || env.Others != 2 || len(p.Items) != 2 {
		t.Errorf("DecodeMembers = %+v, %v, items %v", env, err, p.Items)
	}
	WithDecoder(bytes.NewReader([]byte(`{"status":"OK","items":[]} x`)), opts, func(dec *jsontext.Decoder) {
		_, _, err = DecodeMembers(dec, "items", &p, opts)
	})
	if err == nil {
		t.Error("DecodeMembers with data after the value: no error")
	}
}

// A member that does not decode is reported as bad, and the read goes on
// to the envelope's members after it; an empty body is ErrEmpty.
func TestDecodeMembersReadsPastABadMember(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]Envelope{
		`{"items":{"a":[1,{"b":2}]},"status":"ERROR","message":"no","x":1}`: {Status: "ERROR", Message: "no", Others: 2, HasNeed: true},
		`{"items":[1,"two",3],"status":"OK","total":3}`:                     {Status: "OK", Others: 2, HasNeed: true},
		`{"items":[[[]]],"status":"OK"}`:                                    {Status: "OK", Others: 1, HasNeed: true},
	} {
		var p page
		var env Envelope
		var bad, err error
		WithDecoder(strings.NewReader(body), opts, func(dec *jsontext.Decoder) {
			env, bad, err = DecodeMembers(dec, "items", &p, opts)
		})
		if err != nil || bad == nil || env != want {
			t.Errorf("DecodeMembers(%s) = %+v, bad %v, err %v; want %+v and a bad member", body, env, bad, err, want)
		}
	}
	for _, body := range []string{"", "  \n"} {
		var p page
		var err error
		WithDecoder(strings.NewReader(body), opts, func(dec *jsontext.Decoder) { _, _, err = DecodeMembers(dec, "items", &p, opts) })
		if !errors.Is(err, ErrEmpty) {
			t.Errorf("DecodeMembers(%q): err %v, want ErrEmpty", body, err)
		}
	}
}
