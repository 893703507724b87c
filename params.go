package padapi

import (
	"fmt"
	"net/url"
	"reflect"
)

// Ptr returns a pointer to v. Params are structs of pointers, so that a field
// left nil is not sent at all; Ptr fills them in one expression:
// &padapi.PadCreateParams{Title: padapi.Ptr("Interview"), Private: padapi.Ptr(true)}.
func Ptr[T any](v T) *T { return &v }

// formValues encodes the non-nil pointer fields of a params struct under
// their `form` tags. A nil params encodes as an empty form.
func formValues(params any) url.Values {
	form := url.Values{}
	rv := reflect.ValueOf(params)
	if rv.IsNil() {
		return form
	}
	rv = rv.Elem()
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Tag.Get("form")
		if f := rv.Field(i); name != "" && !f.IsNil() {
			form.Set(name, fmt.Sprint(f.Elem().Interface()))
		}
	}
	return form
}
