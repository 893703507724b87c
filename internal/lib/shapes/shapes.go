// Package shapes records the shape of JSON answers (each field's path, the
// JSON kinds seen there, whether it was ever absent) and compares the shape
// of one service's answers with another's, without keeping any value: a
// shape and a difference hold field names and kinds only, so they can be
// pasted into a bug report.
//
// padapitest uses it to compute the reference shapes of its answers
// (stored in package reference, which embeds them), and its tests to
// compare the fake with the recorded samples; padctl doctor --shapes uses
// it to compare the live service's answers with that reference.
package shapes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Kind is a set of JSON kinds.
type Kind uint8

// The JSON kinds.
const (
	String Kind = 1 << iota
	Number
	Bool
	Object
	Array
	Null
)

type kindName struct {
	k    Kind
	name string
}

var kindNames = []kindName{{String, "string"}, {Number, "number"}, {Bool, "boolean"}, {Object, "object"}, {Array, "array"}, {Null, "null"}}

// String names the kinds of k joined by "|", as "string|null".
func (k Kind) String() string {
	var names []string
	for _, n := range kindNames {
		if k&n.k != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, "|")
}

// Field is what the answers showed at one path.
type Field struct {
	// Kinds are the kinds seen at the path.
	Kinds Kind
	// Optional is set when the field may be left out of the object that
	// holds it: seen absent, or allowed by AllowAbsent.
	Optional bool
	present  int // how many times the field was there
	objects  int // how many times the value at the path was an object
}

// Shape is the shape of one or more JSON documents: a Field for each path.
// The root is the path ""; an object's field k under path p is "p.k" (or
// "k" under the root); the elements of an array at p are "p[]". A key that
// is not a plain field name (lower-case letters, digits and underscores, at
// most 64) is recorded as "*", so that a key made of data (an ID, an
// email) never shows; Collapse does the same for an object known to be
// keyed by data.
type Shape map[string]*Field

// fieldName is what a key must look like to be shown as it is: the
// service's field names are lower-case snake_case. An ID, an email, a UUID
// or a name with capitals or spaces is not.
// It is ^[a-z_][a-z0-9_]{0,63}$, checked by hand: doctor checks every key
// of an answer that may hold a million.
func fieldName(key string) bool {
	if key == "" || len(key) > 64 || key[0] >= '0' && key[0] <= '9' {
		return false
	}
	for i := range len(key) {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// maxDepth bounds the nesting Add follows; deeper values count as their
// kind alone.
const maxDepth = 64

// MaxPaths bounds the paths one Shape records: an answer made of data keys
// (a million field names) costs no more than this many. Past it, Add
// records no new path and says how many values it left out.
const MaxPaths = 10_000

// TooManyPathsError is Add's answer when the document had values at more
// paths than MaxPaths allows: the shape holds the first MaxPaths paths,
// and Left values at other paths were left out.
type TooManyPathsError struct {
	Max, Left int
}

// Error says how many values were left out.
func (e *TooManyPathsError) Error() string {
	return fmt.Sprintf("shapes: more than %d field paths: %d values at other paths not recorded", e.Max, e.Left)
}

// Add records the shape of one JSON document. It walks the document's
// tokens without building its values, records at most MaxPaths paths, and
// returns a *TooManyPathsError when it left values out (the shape of the
// rest is recorded).
func (s Shape) Add(doc []byte) error {
	if !json.Valid(doc) {
		var v any
		err := json.Unmarshal(doc, &v)
		return fmt.Errorf("shapes: the document is not JSON: %w", err)
	}
	w := &walker{s: s, dec: json.NewDecoder(bytes.NewReader(doc))}
	w.dec.UseNumber()
	if err := w.value("", 0); err != nil {
		return fmt.Errorf("shapes: the document is not JSON: %w", err)
	}
	s.absences()
	if w.left > 0 {
		return &TooManyPathsError{Max: MaxPaths, Left: w.left}
	}
	return nil
}

func (s Shape) field(path string) *Field {
	f := s[path]
	if f == nil {
		f = &Field{}
		s[path] = f
	}
	return f
}

// walker records one document's shape from its tokens.
type walker struct {
	s    Shape
	dec  *json.Decoder
	left int // values at paths past MaxPaths
}

// record returns the field at path, new if there is room for it, or nil
// (counted as left out).
func (w *walker) record(path string) *Field {
	if f := w.s[path]; f != nil || len(w.s) < MaxPaths {
		return w.s.field(path)
	}
	w.left++
	return nil
}

// value records the next value of the document at path.
func (w *walker) value(path string, depth int) error {
	t, err := w.dec.Token()
	if err != nil {
		return err
	}
	f := w.record(path)
	if f == nil {
		f = &Field{} // counted as left out; its insides are walked all the same
	}
	f.present++
	switch x := t.(type) {
	case nil:
		f.Kinds |= Null
	case string:
		f.Kinds |= String
	case json.Number:
		f.Kinds |= Number
	case bool:
		f.Kinds |= Bool
	case json.Delim:
		if x == '[' {
			f.Kinds |= Array
			return w.array(path, depth)
		}
		f.Kinds |= Object
		f.objects++
		return w.object(path, depth)
	}
	return nil
}

// array records the elements of an array at path, up to its end.
func (w *walker) array(path string, depth int) error {
	if depth >= maxDepth {
		return w.skip()
	}
	for w.dec.More() {
		if err := w.value(path+"[]", depth+1); err != nil {
			return err
		}
	}
	_, err := w.dec.Token()
	return err
}

// object records the fields of an object at path, up to its end. Two keys
// at one path (two shown as "*", or a key sent twice) count once.
func (w *walker) object(path string, depth int) error {
	if depth >= maxDepth {
		return w.skip()
	}
	seen := map[string]bool{}
	for w.dec.More() {
		t, err := w.dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		p := child(path, key)
		recorded := w.s[p] != nil || len(w.s) < MaxPaths
		switch {
		case recorded && seen[p]:
			err = w.skipValue()
		default:
			if recorded {
				seen[p] = true
			}
			err = w.value(p, depth+1)
		}
		if err != nil {
			return err
		}
	}
	_, err := w.dec.Token()
	return err
}

// skipValue reads the next value without recording it.
func (w *walker) skipValue() error {
	t, err := w.dec.Token()
	if err != nil {
		return err
	}
	if _, ok := t.(json.Delim); ok {
		return w.skip()
	}
	return nil
}

// skip reads the rest of the array or object just opened, up to its end.
func (w *walker) skip() error {
	for open := 1; open > 0; {
		t, err := w.dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('['), json.Delim('{'):
			open++
		case json.Delim(']'), json.Delim('}'):
			open--
		}
	}
	return nil
}

func child(path, key string) string {
	if !fieldName(key) {
		key = "*"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// parent is the path of the object or array that holds path, and whether
// path is an object's field (not an array's elements).
func parent(path string) (string, bool) {
	if p, ok := strings.CutSuffix(path, "[]"); ok {
		return p, false
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i], true
	}
	return "", path != ""
}

// absences marks as optional every field missing from an object that
// holds it elsewhere.
func (s Shape) absences() {
	for path, f := range s {
		if p, isField := parent(path); isField && s[p] != nil && f.present < s[p].objects {
			f.Optional = true
		}
	}
}

// Collapse records every key of the objects at path as "*": for an object
// whose keys are data (a table name, an ID), so that none of them shows.
func (s Shape) Collapse(path string) {
	prefix := path + "."
	if path == "" {
		prefix = ""
	}
	moved := Shape{}
	for p, f := range s {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok || p == path {
			continue
		}
		delete(s, p)
		tail := ""
		if i := strings.IndexAny(rest, ".["); i >= 0 {
			tail = rest[i:]
		}
		np := prefix + "*" + tail
		moved.merge(np, f)
	}
	for p, f := range moved {
		s.merge(p, f)
	}
	s.absences()
}

func (s Shape) merge(path string, of *Field) {
	f := s.field(path)
	f.Kinds |= of.Kinds
	f.Optional = f.Optional || of.Optional
	f.present += of.present
	f.objects += of.objects
}

// AllowNull widens the shape: the field at path may also be null. It does
// nothing when the shape has no such path.
func (s Shape) AllowNull(path string) {
	if f := s[path]; f != nil {
		f.Kinds |= Null
	}
}

// AllowAbsent widens the shape: the field at path may be left out. It does
// nothing when the shape has no such path.
func (s Shape) AllowAbsent(path string) {
	if f := s[path]; f != nil {
		f.Optional = true
	}
}

// Widen applies what a Go model type t says about the fields under prefix
// (the path of a value of type t): a pointer field may be null, an
// omitempty or omitzero field may be absent. It widens only paths the
// shape has: a model never adds a field.
func (s Shape) Widen(prefix string, t reflect.Type) {
	s.widen(prefix, t, 0)
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

func (s Shape) widen(path string, t reflect.Type, depth int) {
	if depth > maxDepth {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == rawMessage:
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		s.widen(path+"[]", t.Elem(), depth+1)
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			sf := t.Field(i)
			name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if !sf.IsExported() || name == "-" || name == "" {
				continue
			}
			p := child(path, name)
			if sf.Type.Kind() == reflect.Pointer {
				s.AllowNull(p)
			}
			if slices.ContainsFunc(strings.Split(opts, ","), func(o string) bool { return o == "omitempty" || o == "omitzero" }) {
				s.AllowAbsent(p)
			}
			s.widen(p, sf.Type, depth+1)
		}
	}
}

// Diff is one difference between two shapes at one path: what each side
// showed there, as kinds joined by "|", with "absent" for a field left out.
type Diff struct {
	Path string `json:"path"`
	Live string `json:"live"`
	Fake string `json:"fake"`
}

func describe(f *Field) string {
	if f == nil {
		return "absent"
	}
	d := f.Kinds.String()
	if f.Optional {
		if d != "" {
			d += "|"
		}
		d += "absent"
	}
	return d
}

// MarshalJSON writes the field as Compare describes it: its kinds joined
// by "|", with "absent" last when it is optional ("string|null|absent").
// Only the kinds and Optional are kept: a shape read back is a reference
// to Compare with, not one to Add to.
func (f *Field) MarshalJSON() ([]byte, error) {
	return json.Marshal(describe(f))
}

// UnmarshalJSON reads a field as MarshalJSON writes it.
func (f *Field) UnmarshalJSON(b []byte) error {
	var d string
	if err := json.Unmarshal(b, &d); err != nil {
		return fmt.Errorf("shapes: a field is a string of kinds: %w", err)
	}
	*f = Field{}
	for name := range strings.SplitSeq(d, "|") {
		i := slices.IndexFunc(kindNames, func(n kindName) bool { return n.name == name })
		switch {
		case name == "absent":
			f.Optional = true
		case i >= 0:
			f.Kinds |= kindNames[i].k
		case name != "" || d != "":
			return fmt.Errorf("shapes: %q is not a JSON kind", name)
		}
	}
	return nil
}

// Compare returns where live differs from ref, sorted by path: a path ref
// never has (only the outermost of a subtree), a kind ref never has at that
// path, a field live leaves out that ref always sends. A field ref has and
// live does not is a difference only where live showed the object that
// would hold it; an empty array or a null says nothing about its insides.
func Compare(live, ref Shape) []Diff {
	var out []Diff
	for _, path := range slices.Sorted(maps.Keys(live)) {
		lf, rf := live[path], ref[path]
		if rf == nil {
			// Only where ref had the object or array that would hold it:
			// inside a value of another kind, the kind is the difference.
			if p, isField := parent(path); path == "" || ref[p] != nil && ref[p].Kinds&holder(isField) != 0 {
				out = append(out, Diff{path, describe(lf), "absent"})
			}
			continue
		}
		if lf.Kinds&^rf.Kinds != 0 || (lf.Optional && !rf.Optional) {
			out = append(out, Diff{path, describe(lf), describe(rf)})
		}
	}
	for _, path := range slices.Sorted(maps.Keys(ref)) {
		rf := ref[path]
		p, isField := parent(path)
		if live[path] != nil || !isField || rf.Optional || live[p] == nil || live[p].objects == 0 {
			continue
		}
		out = append(out, Diff{path, "absent", describe(rf)})
	}
	slices.SortFunc(out, func(a, b Diff) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// holder is the kind that holds a field (an object) or an element (an
// array).
func holder(isField bool) Kind {
	if isField {
		return Object
	}
	return Array
}

// Merge adds what other showed to s: the union of both shapes' kinds, and
// a field optional in either, or missing from objects of one of them, is
// optional.
func (s Shape) Merge(other Shape) {
	for path, of := range other {
		s.merge(path, of)
	}
	s.absences()
}
