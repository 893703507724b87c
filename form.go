// form.go: request bodies: form-encoded and multipart, and Ptr for params.

package padapi

import (
	"bytes"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"strconv"
)

// Ptr returns a pointer to v. Params are structs of pointers, so that a field
// left nil is not sent at all; Ptr fills them in one expression:
// &padapi.PadCreateParams{Title: padapi.Ptr("Interview"), Private: padapi.Ptr(true)}.
func Ptr[T any](v T) *T { return &v }

// body is a request body, held whole in memory so that every attempt of a
// request sends the same bytes.
type body struct {
	contentType string
	data        []byte
}

// jsonBody is v as a JSON body (application/json): the routes added in
// v5 take JSON, not forms. A text that is not UTF-8 is refused.
func jsonBody(v any) (*body, error) {
	b, err := marshal(v)
	if err != nil {
		return nil, argError("the body cannot be JSON: " + err.Error())
	}
	return &body{contentType: "application/json", data: b}, nil
}

// form collects the fields of a request body in the order they are set.
type form struct {
	names, values []string
	file          *formFile // sent as multipart/form-data when set
}

// formFile is a file part of a multipart body.
type formFile struct {
	field, filename, contentType string
	data                         []byte
}

func (f *form) set(name, value string) {
	f.names = append(f.names, name)
	f.values = append(f.values, value)
}

// setString sets name when v is not nil.
func (f *form) setString(name string, v *string) {
	if v != nil {
		f.set(name, *v)
	}
}

// setBool sets name to true or false when v is not nil.
func (f *form) setBool(name string, v *bool) {
	if v != nil {
		f.set(name, strconv.FormatBool(*v))
	}
}

// encode returns the body: form-encoded, or multipart/form-data when the
// form carries a file.
func (f *form) encode() *body {
	if f.file == nil {
		var b []byte
		for i, name := range f.names {
			if i > 0 {
				b = append(b, '&')
			}
			b = append(b, url.QueryEscape(name)...)
			b = append(b, '=')
			b = append(b, url.QueryEscape(f.values[i])...)
		}
		return &body{contentType: "application/x-www-form-urlencoded", data: b}
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for i, name := range f.names {
		_ = w.WriteField(name, f.values[i]) // a bytes.Buffer never fails
	}
	h := textproto.MIMEHeader{}
	// field and filename are the client's own constants, with no quote to
	// escape.
	h.Set("Content-Disposition", `form-data; name="`+f.file.field+`"; filename="`+f.file.filename+`"`)
	h.Set("Content-Type", f.file.contentType)
	part, _ := w.CreatePart(h)
	_, _ = part.Write(f.file.data)
	_ = w.Close()
	return &body{contentType: w.FormDataContentType(), data: buf.Bytes()}
}
