package qsync

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// seedQuestions adds n questions of a title, a language, a description
// and starter code to srv.
func seedQuestions(srv *padapitest.Server, n int) {
	for i := range n {
		srv.AddQuestion(padapi.Question{Title: fmt.Sprintf("Question %d", i), Language: "python",
			Description: "Write a function.\n", Contents: "def f():\n    pass\n", OrganizationName: "Org"})
	}
}

// BenchmarkPullNoChange measures, for benchQuestions questions on the fake
// (no latency, 8 pages at once, the read cache on), the time to list them and the time of a pull
// that has nothing to change, and reports their ratio (issue 40 #4:
// at most 1.3).
func BenchmarkPullNoChange(b *testing.B) {
	srv := padapitest.NewServer(b)
	seedQuestions(srv, benchQuestions)
	c := srv.Client(padapi.WithConcurrentPages(8))
	dir := filepath.Join(b.TempDir(), "lib")
	s := New(c, dir, Options{CacheFile: filepath.Join(b.TempDir(), "cache.json")})
	run := func() {
		if err := s.Lock(b.Context(), false); err != nil {
			b.Fatal(err)
		}
		defer s.Unlock()
		p, err := s.Plan(b.Context(), Pull)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Apply(b.Context(), p, nil); err != nil {
			b.Fatal(err)
		}
	}
	run()
	// A library older than the read cache's racy window, as one checked
	// out earlier is; the first pull after that reads it, and caches it.
	ageTree(b, dir)
	run()
	var list, pull time.Duration
	for b.Loop() {
		start := time.Now()
		n := 0
		for _, err := range c.Questions.All(b.Context(), nil) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		list += time.Since(start)
		start = time.Now()
		run()
		pull += time.Since(start)
	}
	b.ReportMetric(float64(list.Milliseconds())/float64(b.N), "list-ms")
	b.ReportMetric(float64(pull.Milliseconds())/float64(b.N), "pull-ms")
	b.ReportMetric(float64(pull)/float64(list), "pull/list")
	if s.cacheStats.Hits != benchQuestions {
		b.Errorf("read cache %+v, want every folder a hit", s.cacheStats)
	}
}

// benchQuestions is how many questions BenchmarkPullNoChange seeds: 2 000,
// or QSYNC_BENCH_QUESTIONS (issue 40's figure is for 10 000, whose set-up
// writes 30 000 files).
var benchQuestions = func() int {
	if n, err := strconv.Atoi(os.Getenv("QSYNC_BENCH_QUESTIONS")); err == nil && n > 0 {
		return n
	}
	return 2_000
}()

// ageTree sets the time of everything below dir to an hour ago.
func ageTree(tb testing.TB, dir string) {
	tb.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkVariantsPullDiff measures a pull and a diff of 200 questions,
// without variants and with 3 each (pull --variants), on the fake (issue
// 36: at most 2× the time, plus one variant list per question).
func BenchmarkVariantsPullDiff(b *testing.B) {
	for _, variants := range []bool{false, true} {
		b.Run(fmt.Sprintf("variants=%v", variants), func(b *testing.B) {
			srv := padapitest.NewServer(b)
			seedQuestions(srv, 200)
			if variants {
				for _, q := range srv.Questions() {
					for _, lang := range []string{"ruby", "go", "java"} {
						srv.AddVariant(q.ID, padapi.QuestionVariant{Language: lang, Contents: padapi.Ptr("// " + lang)})
					}
				}
			}
			c := srv.Client(padapi.WithConcurrentPages(8))
			for b.Loop() {
				dir := filepath.Join(b.TempDir(), "lib")
				s := New(c, dir, Options{Variants: variants})
				if err := s.Lock(b.Context(), false); err != nil {
					b.Fatal(err)
				}
				p, err := s.Plan(b.Context(), Pull)
				if err == nil {
					err = s.Apply(b.Context(), p, nil)
				}
				s.Unlock()
				if err != nil {
					b.Fatal(err)
				}
				if p, err := s.Plan(b.Context(), Push); err != nil || p.Changes() {
					b.Fatal(err, p.Changes())
				}
			}
		})
	}
}
