package padapitest_test

import (
	"context"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// TestSeedInvisibleObserver: a seeded pad has an interviewer who joined
// invisibly, an event whose metadata is "invisible".
func TestSeedInvisibleObserver(t *testing.T) {
	srv, _, _ := newFake(t)
	srv.Seed(4)
	found := 0
	for _, p := range srv.Pads() {
		for _, e := range srv.Events(p.ID) {
			if e.Metadata == "invisible" {
				found++
				if e.Kind != "joined" || e.UserEmail == "" {
					t.Errorf("invisible event %+v, want an interviewer's join", e)
				}
			}
		}
	}
	if found == 0 {
		t.Error("no seeded event has metadata invisible")
	}
}

// TestSeededQuestionsLikeCreated: seeded questions carry an owner, an
// author, the organization and a pad type, as questions created through
// the API do.
func TestSeededQuestionsLikeCreated(t *testing.T) {
	eachShape(t, func(t *testing.T, srv *padapitest.Server, c *padapi.Client, _ *clock) {
		created, err := c.Questions.Create(context.Background(), &padapi.QuestionCreateParams{Title: padapi.Ptr("Q"), Language: padapi.Ptr("go")})
		if err != nil {
			t.Fatal(err)
		}
		srv.Seed(4)
		users := map[string]string{"owner@example.com": "Olivia Owner", "interviewer@example.com": "Ian Interviewer"}
		for _, q := range srv.Questions()[1:] {
			if users[q.OwnerEmail] == "" || q.AuthorName != users[q.OwnerEmail] || q.OrganizationName != created.OrganizationName || q.PadType != created.PadType {
				t.Errorf("seeded question %s: owner %q, author %q, organization %q, pad type %q; want a user of the organization, %q, %q",
					q.ID, q.OwnerEmail, q.AuthorName, q.OrganizationName, q.PadType, created.OrganizationName, created.PadType)
			}
		}
	})
}
