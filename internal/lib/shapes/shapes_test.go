package shapes

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func shapeOf(t *testing.T, docs ...string) Shape {
	t.Helper()
	s := Shape{}
	for _, d := range docs {
		if err := s.Add([]byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestCompare(t *testing.T) {
	ref := shapeOf(t,
		`{"id":"A","team":{"id":"u-1","name":"x"},"notes":null,"tags":["a"],"ended_at":null}`,
		`{"id":"B","team":null,"notes":"n","tags":[],"ended_at":"2024-01-01T00:00:00Z","drawing":"d"}`)
	for _, tc := range []struct {
		name, live string
		want       []Diff
	}{
		{"same shape, other values", `{"id":"Z","team":{"id":"v","name":"y"},"notes":"","tags":["b","c"],"ended_at":null}`, nil},
		{"a number where the fake sends strings", `{"id":"Z","team":{"id":42,"name":"y"},"notes":null,"tags":[],"ended_at":null}`,
			[]Diff{{"team.id", "number", "string"}}},
		{"a field the fake never sends, with its insides", `{"id":"Z","team":null,"notes":null,"tags":[],"ended_at":null,"extra":{"a":1,"b":[2]}}`,
			[]Diff{{"extra", "object", "absent"}}},
		{"a field the fake always sends, left out", `{"id":"Z","team":null,"tags":[],"ended_at":null}`,
			[]Diff{{"notes", "absent", "string|null"}}},
		{"an optional field left out; an empty array and a null say nothing of their insides", `{"id":"Z","team":null,"notes":null,"tags":[],"ended_at":null}`, nil},
		{"a kind and absence at once, in list items", `{"id":"Z","team":{"name":"y"},"notes":true,"tags":[1],"ended_at":null}`,
			[]Diff{{"notes", "boolean", "string|null"}, {"tags[]", "number", "string"}, {"team.id", "absent", "string"}}},
		{"keys made of data collapse", `{"id":"Z","team":null,"notes":null,"tags":[],"ended_at":null,"jane@example.com":1,"4f9a-11":2}`,
			[]Diff{{"*", "number", "absent"}}},
		{"not an object at the root", `[]`, []Diff{{"", "array", "object"}}},
		{"objects where the fake sends strings: the kind alone", `{"id":"Z","team":null,"notes":null,"tags":[{"a":1}],"ended_at":null}`,
			[]Diff{{"tags[]", "object", "string"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Compare(shapeOf(t, tc.live), ref)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestWiden(t *testing.T) {
	type team struct {
		ID string `json:"id"`
	}
	type model struct {
		Team    *team           `json:"team,omitempty"`
		State   string          `json:"state,omitempty"`
		Items   []team          `json:"items"`
		Ignored string          `json:"-"`
		Raw     json.RawMessage `json:"raw,omitzero"`
	}
	ref := shapeOf(t, `{"team":{"id":"a"},"state":"s","items":[{"id":"b"}],"raw":[1]}`)
	ref.Widen("", reflect.TypeFor[model]())
	live := shapeOf(t, `{"team":null,"items":[{"id":"c"}]}`, `{"items":[]}`)
	if d := Compare(live, ref); d != nil {
		t.Errorf("a model's nullable and optional fields: %v", d)
	}
	// The model does not add a field the fake never sends, nor a kind
	// other than null.
	live = shapeOf(t, `{"team":{"id":1},"state":"s","items":[],"raw":[1],"more":1}`)
	want := []Diff{{"more", "number", "absent"}, {"team.id", "number", "string"}}
	if diff := cmp.Diff(want, Compare(live, ref)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNoValues(t *testing.T) {
	s := shapeOf(t, `{"secret-key-123":"jane@example.com","name":"Jane Doe","n":[{"K9ZR":"x"}]}`)
	for path, f := range s {
		for _, v := range []string{"secret", "jane", "Jane", "K9ZR"} {
			if strings.Contains(path+f.Kinds.String(), v) {
				t.Errorf("the shape holds %q: %s", v, path)
			}
		}
	}
}

func TestMerge(t *testing.T) {
	a, b := shapeOf(t, `{"x":1,"y":"s"}`), shapeOf(t, `{"x":null}`)
	a.Merge(b)
	if got := describe(a["x"]) + " " + describe(a["y"]); got != "number|null string|absent" {
		t.Errorf("merged: %s", got)
	}
	if err := a.Add([]byte(`{`)); err == nil {
		t.Error("Add took a document that is not JSON")
	}
}

func TestCollapse(t *testing.T) {
	s := shapeOf(t, `{"db":{"arrangement":{"customers":{"x":0},"orders":{"x":1,"y":[2]}}}}`)
	s.Collapse("db.arrangement")
	var paths []string
	for p := range s {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	want := []string{"", "db", "db.arrangement", "db.arrangement.*", "db.arrangement.*.x", "db.arrangement.*.y", "db.arrangement.*.y[]"}
	if !slices.Equal(paths, want) {
		t.Errorf("paths %v, want %v", paths, want)
	}
	if !s["db.arrangement.*.y"].Optional || s["db.arrangement.*.x"].Optional {
		t.Errorf("y is in one of two objects, x in both: %+v %+v", s["db.arrangement.*.y"], s["db.arrangement.*.x"])
	}
}

// TestFieldJSON: a shape written as JSON and read back compares as the
// shape did: the same kinds and absences, and the same differences.
func TestFieldJSON(t *testing.T) {
	ref := shapeOf(t, `{"a":"x","b":null,"c":[{"d":1}],"e":{"f":true}}`, `{"a":null,"c":[{}],"e":{"f":false}}`)
	b, err := json.Marshal(ref)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"":"object","a":"string|null","b":"null|absent","c":"array","c[]":"object","c[].d":"number|absent","e":"object","e.f":"boolean"}`
	if string(b) != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", b, want)
	}
	var back Shape
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for path, f := range ref {
		if g := back[path]; g == nil || g.Kinds != f.Kinds || g.Optional != f.Optional {
			t.Errorf("%s: read back %+v, want %+v", path, g, f)
		}
	}
	live := shapeOf(t, `{"a":1,"c":[{"d":"x"}],"e":{}}`)
	if diff := cmp.Diff(Compare(live, ref), Compare(live, back)); diff != "" {
		t.Errorf("Compare with the shape read back (-before +after):\n%s", diff)
	}
	for _, bad := range []string{`"string|float"`, `3`, `"|"`} {
		var f Field
		if err := json.Unmarshal([]byte(bad), &f); err == nil {
			t.Errorf("%s: read as %+v, want an error", bad, f)
		}
	}
}

// A document of more paths than MaxPaths records the first MaxPaths and
// says how many values it left out (issue 28 #15): a million field names
// cost no more than MaxPaths.
func TestAddBoundsThePaths(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"a":{"b":1}`)
	const n = 100_000
	for i := range n {
		fmt.Fprintf(&b, `,"f_%d":{"x":[1,"s"]}`, i)
	}
	b.WriteString(`}`)
	s := Shape{}
	err := s.Add([]byte(b.String()))
	var many *TooManyPathsError
	if !errors.As(err, &many) || many.Max != MaxPaths {
		t.Fatalf("Add: %v, want a *TooManyPathsError", err)
	}
	if len(s) != MaxPaths {
		t.Errorf("recorded %d paths, want %d", len(s), MaxPaths)
	}
	// Root, a, a.b: 3 paths; each f_i is 4 (f_i, f_i.x, f_i.x[] twice the
	// same path: 3 distinct) and 4 values.
	recorded := MaxPaths - 3
	if want := 4*n - 4*(recorded/3) - (recorded % 3); many.Left != want {
		t.Errorf("left out %d values, want %d", many.Left, want)
	}
	if f := s["a.b"]; f == nil || f.Kinds != Number {
		t.Errorf("a.b: %+v, want a number", f)
	}
	if f := s["f_0.x[]"]; f == nil || f.Kinds != Number|String {
		t.Errorf("f_0.x[]: %+v, want number|string", f)
	}
	if !strings.Contains(err.Error(), fmt.Sprint(many.Left)) {
		t.Errorf("the error does not say how many: %v", err)
	}
}

// fieldName is the pattern ^[a-z_][a-z0-9_]{0,63}$.
func TestFieldName(t *testing.T) {
	re := regexp.MustCompile(`^[a-z_][a-z0-9_]{0,63}$`)
	for _, k := range []string{"", "a", "_", "9", "a9", "_9", "A", "aB", "a-b", "a.b", "a b", "é", "a\x00", "z", "{", "`", "/",
		strings.Repeat("a", 64), strings.Repeat("a", 65), "user_name", "x" + strings.Repeat("0", 63)} {
		if got, want := fieldName(k), re.MatchString(k); got != want {
			t.Errorf("fieldName(%q) = %v, want %v", k, got, want)
		}
	}
}
