// Package reference is what padctl doctor --shapes compares the service's
// answers with: the read-only calls it makes, and the shape of
// padapitest's answers to each, whatever data the fake holds.
//
// The shapes are computed by padapitest (padapitest.ReferenceShapes) and
// stored in reference.json, which this package embeds; padapitest's tests
// compute them again and fail when they differ from the file (go test
// ./padapitest -run TestReferenceGolden -update rewrites it), so a change
// of the fake that changes a shape shows in review. A program that imports
// this package links no fake and starts none.
package reference

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/shapes"
)

// golden is reference.json: the shapes by call label.
//
//go:embed reference.json
var golden []byte

// Shapes returns the reference shape of each call's answer, by the call's
// label. Each call gets a fresh copy.
func Shapes() (map[string]shapes.Shape, error) {
	var ref map[string]shapes.Shape
	if err := json.Unmarshal(golden, &ref); err != nil {
		return nil, fmt.Errorf("the reference shapes: %w", err)
	}
	return ref, nil
}

// IDs are the IDs the calls take from earlier answers.
type IDs struct{ Pad, Env, Question string }

// Call is one read-only call of doctor --shapes.
type Call struct {
	// Label is the call's method and route, an ID in it as :id, as
	// doctor prints it: "GET /api/pads/:id". The request path is the
	// route with the ID put in.
	Label string
	// id picks the ID that :id stands for; nil when the route has none.
	id func(IDs) string
	// Prefix is the path of the answer's items of type Model (the answer
	// itself when ""): the fields Model keeps nullable may be null, its
	// optional ones absent.
	Prefix string
	Model  reflect.Type
	// Collapse are the paths of objects keyed by data.
	Collapse []string
}

// Path returns the request path of the call given the IDs known, or ""
// when an ID it needs is unknown.
func (c Call) Path(known IDs) string {
	_, route, _ := strings.Cut(c.Label, " ")
	if c.id == nil {
		return route
	}
	id := c.id(known)
	if id == "" {
		return ""
	}
	return strings.Replace(route, ":id", url.PathEscape(id), 1)
}

// Shape records the shape of one answer to the call. With an answer of
// more paths than shapes.MaxPaths, it returns the shape of those it
// recorded and the *shapes.TooManyPathsError saying how much it left out.
func (c Call) Shape(body []byte) (shapes.Shape, error) {
	s := shapes.Shape{}
	err := s.Add(body)
	var many *shapes.TooManyPathsError
	if err != nil && !errors.As(err, &many) {
		return nil, err
	}
	for _, p := range c.Collapse {
		s.Collapse(p)
	}
	return s, err
}

// EnvCall is the index of the environment's call in Calls.
const EnvCall = 4

func padID(i IDs) string      { return i.Pad }
func envID(i IDs) string      { return i.Env }
func questionID(i IDs) string { return i.Question }

// Calls returns the calls doctor --shapes makes, in order: each a GET
// below the base URL.
func Calls() []Call {
	return []Call{
		{Label: "GET /api/quota", Model: reflect.TypeFor[padapi.Quota]()},
		{Label: "GET /api/pads", Prefix: "pads[]", Model: reflect.TypeFor[padapi.Pad]()},
		{Label: "GET /api/pads/:id", id: padID, Model: reflect.TypeFor[padapi.Pad]()},
		{Label: "GET /api/pads/:id/events", id: padID, Prefix: "events[]", Model: reflect.TypeFor[padapi.PadEvent]()},
		{Label: "GET /api/pad_environments/:id", id: envID, Model: reflect.TypeFor[padapi.PadEnvironment]()},
		{Label: "GET /api/organization", Model: reflect.TypeFor[padapi.Organization]()},
		{Label: "GET /api/organization/stats", Model: reflect.TypeFor[padapi.OrganizationStats]()},
		{Label: "GET /api/organization/users", Prefix: "users[]", Model: reflect.TypeFor[padapi.OrganizationUser]()},
		{Label: "GET /api/questions", Prefix: "questions[]", Model: reflect.TypeFor[padapi.Question](),
			Collapse: []string{"questions[].custom_database.schema_json.arrangement"}},
		{Label: "GET /api/questions/:id", id: questionID, Model: reflect.TypeFor[padapi.Question](),
			Collapse: []string{"custom_database.schema_json.arrangement"}},
	}
}

// Learn takes from the answer to the call labelled label what later calls
// need: the first pad's ID, its environment's, the first question's.
func Learn(label string, body []byte, known *IDs) {
	var v struct {
		Pads      []struct{ ID padapi.ID } `json:"pads"`
		Questions []struct{ ID padapi.ID } `json:"questions"`
		EnvIDs    []padapi.ID              `json:"pad_environment_ids"`
		Active    *padapi.ID               `json:"active_environment_id"`
	}
	if json.Unmarshal(body, &v) != nil {
		return
	}
	switch label {
	case "GET /api/pads":
		if len(v.Pads) > 0 {
			known.Pad = string(v.Pads[0].ID)
		}
	case "GET /api/pads/:id":
		switch {
		case v.Active != nil && *v.Active != "":
			known.Env = string(*v.Active)
		case len(v.EnvIDs) > 0:
			known.Env = string(v.EnvIDs[0])
		}
	case "GET /api/questions":
		if len(v.Questions) > 0 {
			known.Question = string(v.Questions[0].ID)
		}
	}
}
