package qsync

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// writes counts the requests to srv that change something.
func writes(srv *padapitest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method != http.MethodGet {
			n++
		}
	}
	return n
}

// variantsFixture is a fake with one question of three variants, pulled.
func variantsFixture(t *testing.T) (*env, padapi.ID) {
	e := newEnv(t)
	q := e.srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python", Contents: "def f(): pass", OrganizationName: "Org"})
	e.srv.AddVariant(q.ID, padapi.QuestionVariant{Language: "ruby", Contents: padapi.Ptr("def f; end")})
	e.srv.AddVariant(q.ID, padapi.QuestionVariant{Language: "go"}) // the language's default starter
	e.srv.AddVariant(q.ID, padapi.QuestionVariant{Language: "java", Contents: padapi.Ptr(""), Solution: padapi.Ptr("class S {}")})
	e.must(Pull, Options{Variants: true})
	return e, q.ID
}

// Issue 36: pull → diff shows nothing → edit one variant's starter →
// apply changes exactly that variant (1 request) → a second apply changes
// nothing. A default starter (null) has no file, a blank one an empty one.
func TestVariantsRoundTrip(t *testing.T) {
	e, qid := variantsFixture(t)
	if got := e.read("two-sum/variants/ruby/starter.rb"); got != "def f; end" {
		t.Errorf("ruby's starter %q", got)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "two-sum/variants/go/starter.go")); err == nil {
		t.Errorf("the default starter has a file")
	}
	if got := e.read("two-sum/variants/java/starter.java"); got != "" {
		t.Errorf("the blank starter %q", got)
	}
	if p := e.plan(Push, Options{}); p.Changes() || len(p.Variants) != 3 || p.CountVariants(Same) != 3 {
		t.Fatalf("after a pull: changes %v, %+v", p.Changes(), p.Variants)
	}
	e.write(map[string]string{"two-sum/variants/ruby/starter.rb": "def f; 1; end\n"})
	p := e.plan(Push, Options{})
	if p.CountVariants(Update) != 1 || p.Count(Update) != 0 {
		t.Fatalf("after an edit: %+v", p.Variants)
	}
	before := writes(e.srv)
	e.must(Push, Options{})
	if n := writes(e.srv) - before; n != 1 {
		t.Errorf("the apply sent %d requests that change something, want 1", n)
	}
	for _, v := range e.srv.Variants(qid) {
		if v.Language == "ruby" && (v.Contents == nil || *v.Contents != "def f; 1; end\n") {
			t.Errorf("ruby on the service: %+v", v)
		}
		if v.Language == "go" && v.Contents != nil {
			t.Errorf("go's default starter became %q", *v.Contents)
		}
	}
	before = writes(e.srv)
	if evs := e.must(Push, Options{}); writes(e.srv) != before {
		t.Errorf("a second apply changed something: %v", evs)
	}
	if p := e.plan(Push, Options{}); p.Changes() {
		t.Errorf("a plan after the apply: %+v", p.Variants)
	}
	e.must(Pull, Options{})
	if p := e.plan(Push, Options{}); p.Changes() {
		t.Errorf("a plan after a second pull: %+v", p.Variants)
	}
}

// A new variant folder is created once, even when the create's answer is
// lost; one deleted from the folder is deleted only with Prune.
func TestVariantsCreateOnceAndPrune(t *testing.T) {
	e, qid := variantsFixture(t)
	e.write(map[string]string{"two-sum/variants/kotlin/variant.json": `{"language": "kotlin"}`, "two-sum/variants/kotlin/starter.kt": "fun f() {}\n"})
	e.srv.DropNext("POST /api/questions/{id}/variants", 1)
	_, err := e.run(Push, Options{})
	var pe *PendingError
	if !errors.As(err, &pe) || !errors.Is(err, padapi.ErrOutcomeUnknown) || !strings.Contains(e.read("two-sum/variants/kotlin/variant.json"), "pending_create") {
		t.Fatalf("a create with no answer: %v", err)
	}
	evs := e.must(Push, Options{})
	kotlin := 0
	for _, v := range e.srv.Variants(qid) {
		if v.Language == "kotlin" {
			kotlin++
		}
	}
	if kotlin != 1 || strings.Contains(e.read("two-sum/variants/kotlin/variant.json"), "pending_create") || !strings.Contains(e.read("two-sum/variants/kotlin/variant.json"), `"id"`) {
		t.Errorf("%d kotlin variants after a lost answer and a re-run (%d events):\n%s", kotlin, len(evs), e.read("two-sum/variants/kotlin/variant.json"))
	}
	if err := os.RemoveAll(filepath.Join(e.dir, "two-sum/variants/go")); err != nil {
		t.Fatal(err)
	}
	p := e.plan(Push, Options{})
	if p.CountVariants(Skip) != 1 || p.Changes() {
		t.Errorf("a removed variant without --prune: %+v", p.Variants)
	}
	e.must(Push, Options{Prune: true})
	if n := len(e.srv.Variants(qid)); n != 3 {
		t.Errorf("%d variants after the prune, want 3", n)
	}
	if p := e.plan(Push, Options{Prune: true}); p.Changes() {
		t.Errorf("after the prune: %+v", p.Variants)
	}
}

// A library without variants lists none: a diff costs what it did.
func TestNoVariantsNoVariantRequests(t *testing.T) {
	e := newEnv(t)
	e.write(sample)
	e.must(Push, Options{})
	n := len(e.srv.Requests())
	e.plan(Push, Options{})
	for _, r := range e.srv.Requests()[n:] {
		if strings.Contains(r.Path, "/variants") {
			t.Errorf("a diff of a library without variants sent %s %s", r.Method, r.Path)
		}
	}
}

// Issue 36's target: 200 questions × 3 variants pull (--variants) and
// diff in at most 2× the requests of 200 questions without variants, plus
// one variant list per question; the times are logged (and measured by
// BenchmarkVariantsPullDiff).
func TestVariantsCost(t *testing.T) {
	const questions = 200
	count := func(variants bool) (pull, diff int) {
		e := newEnv(t)
		seedQuestions(e.srv, questions)
		if variants {
			for _, q := range e.srv.Questions() {
				for _, lang := range []string{"ruby", "go", "java"} {
					e.srv.AddVariant(q.ID, padapi.QuestionVariant{Language: lang, Contents: padapi.Ptr("// " + lang)})
				}
			}
		}
		n := len(e.srv.Requests())
		e.must(Pull, Options{Variants: variants})
		pull = len(e.srv.Requests()) - n
		n = len(e.srv.Requests())
		if p := e.plan(Push, Options{}); p.Changes() {
			t.Fatalf("a diff after the pull plans changes")
		}
		return pull, len(e.srv.Requests()) - n
	}
	pull0, diff0 := count(false)
	pull3, diff3 := count(true)
	t.Logf("requests: pull %d → %d, diff %d → %d", pull0, pull3, diff0, diff3)
	if pull3 > 2*pull0+questions || diff3 > 2*diff0+questions {
		t.Errorf("with 3 variants each: pull %d, diff %d requests; want at most %d and %d", pull3, diff3, 2*pull0+questions, 2*diff0+questions)
	}
}

// A variant list that fails, or a context that ends while the lists are
// fetched, fails the plan: a list not read is never taken as empty.
func TestVariantListErrorsFailThePlan(t *testing.T) {
	e, _ := variantsFixture(t)
	e.srv.FailNext("GET /api/questions/{id}/variants", 20, http.StatusInternalServerError, "")
	if _, err := e.syncer(Options{}).Plan(e.ctx(), Push); err == nil || !strings.Contains(err.Error(), "list variants") {
		t.Errorf("plan with a failing variant list: %v", err)
	}
	e.srv.FailNext("GET /api/questions/{id}/variants", 0, 0, "")
	ctx, cancel := context.WithCancel(e.ctx())
	cancel()
	s := e.syncer(Options{})
	p := &Plan{Mode: Push, lib: e.lib()}
	if err := s.planVariantsPush(ctx, p); err == nil {
		t.Errorf("a cancelled plan of variants: no error, %d steps", len(p.Variants))
	}
}
