// timefields_test.go: every time field of every model reads every
// timestamp form the service sends, in a list page as in a single answer.

package padapi_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// timeModels are the models with a time field (at any depth) that the
// service's answers decode into.
var timeModels = []any{
	padapi.Pad{}, padapi.PadEvent{}, padapi.InterviewerNotification{}, padapi.Question{},
	padapi.PadEnvironment{}, padapi.Quota{}, padapi.OrganizationStats{}, padapi.QuestionVariant{},
}

// notDecoded are the exported structs with a time field that no answer
// decodes through the codec: a query's window, and a history entry, whose
// time the edit-history document holds in milliseconds.
var notDecoded = []string{"StatsOptions", "HistoryEntry"}

// TestEveryTimeFieldReadsEveryForm sets every time field of every model
// (those inside its lists and pointers too), writes it in each of the
// service's timestamp forms, and decodes it as a list page streams and as
// a single answer: each gives the value back. And it checks that every
// exported struct of the package with a time field is one of the models
// here, so a model added later is tested too.
func TestEveryTimeFieldReadsEveryForm(t *testing.T) {
	t.Parallel()
	checkTimeModelsListed(t)
	at := time.Date(2024, 3, 5, 6, 7, 8, 123000000, time.UTC)
	forms := map[string]func(d, c, h, m string) string{
		"+0000 and a space": func(d, c, h, m string) string { return d + " " + c + h + m },
		"+00":               func(d, c, h, _ string) string { return d + "T" + c + h },
	}
	for _, m := range timeModels {
		typ := reflect.TypeOf(m)
		want := reflect.New(typ)
		if n := fillTimes(want.Elem(), at); n == 0 {
			t.Fatalf("%s: no time field set", typ.Name())
		}
		b, err := json.Marshal(want.Interface())
		if err != nil {
			t.Fatal(err)
		}
		for name, form := range forms {
			other := stampRE.ReplaceAllStringFunc(string(b), func(s string) string {
				p := stampRE.FindStringSubmatch(strings.Replace(s, `Z"`, `+00:00"`, 1))
				return `"` + form(p[1], p[2], p[4], p[5]) + `"`
			})
			if strings.Contains(other, `Z"`) {
				t.Fatalf("%s, %s: a timestamp is left in RFC 3339: %s", typ.Name(), name, other)
			}
			page := reflect.New(reflect.SliceOf(typ))
			if err := padapi.StreamDecodeForTest([]byte("["+other+"]"), page.Interface()); err != nil || page.Elem().Len() != 1 {
				t.Errorf("%s, %s, in a list page: %v", typ.Name(), name, err)
				continue
			}
			one := reflect.New(typ)
			if err := padapi.UnmarshalForTest([]byte(other), one.Interface()); err != nil {
				t.Errorf("%s, %s, alone: %v", typ.Name(), name, err)
				continue
			}
			for how, got := range map[string]any{"in a list page": page.Elem().Index(0).Interface(), "alone": one.Elem().Interface()} {
				if diff := cmp.Diff(want.Elem().Interface(), got); diff != "" {
					t.Errorf("%s, %s, %s: (-want +got)\n%s", typ.Name(), name, how, diff)
				}
			}
		}
	}
}

// fillTimes sets every time field reachable from v to at: pointers to a
// time or a struct are made, and a slice of structs gets one. It returns
// how many it set.
func fillTimes(v reflect.Value, at time.Time) int {
	switch {
	case v.Type() == reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(at))
		return 1
	case v.Kind() == reflect.Pointer && holdsTime(v.Type().Elem()):
		v.Set(reflect.New(v.Type().Elem()))
		return fillTimes(v.Elem(), at)
	case v.Kind() == reflect.Slice && holdsTime(v.Type().Elem()):
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		return fillTimes(v.Index(0), at)
	case v.Kind() == reflect.Struct:
		n := 0
		for i := range v.NumField() {
			n += fillTimes(v.Field(i), at)
		}
		return n
	}
	return 0
}

// holdsTime reports whether t is, or holds, a time.Time.
func holdsTime(t reflect.Type) bool {
	switch {
	case t == reflect.TypeFor[time.Time]():
		return true
	case t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice:
		return holdsTime(t.Elem())
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			if holdsTime(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// checkTimeModelsListed fails the test for an exported struct of the
// package's sources with a time.Time or *time.Time field that is neither
// in timeModels nor in notDecoded.
func checkTimeModelsListed(t *testing.T) {
	t.Helper()
	listed := slices.Clone(notDecoded)
	for _, m := range timeModels {
		listed = append(listed, reflect.TypeOf(m).Name())
	}
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !ts.Name.IsExported() {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if isTimeExpr(field.Type) && !slices.Contains(listed, ts.Name.Name) {
					t.Errorf("%s has a time field but is not in timeModels (or notDecoded, with its reason)", ts.Name.Name)
				}
			}
			return true
		})
	}
}

// isTimeExpr reports whether e is time.Time or *time.Time.
func isTimeExpr(e ast.Expr) bool {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "time" && sel.Sel.Name == "Time"
}
