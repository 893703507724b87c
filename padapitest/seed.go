// seed.go: Seed, the sample questions and pads a test can start from.

package padapitest

import (
	"fmt"
	"time"

	"github.com/padinterview/padapi"
)

// Sample data for Seed: a few of each, combined by index.
var (
	seedQuestions = []struct{ title, language, contents string }{
		{"Two Sum", "python", "def two_sum(nums, target):\n    pass\n"},
		{"LRU Cache", "java", "class LRUCache {\n}\n"},
		{"Merge Intervals", "javascript", "function merge(intervals) {\n}\n"},
		{"Rate Limiter", "go", "package main\n\ntype Limiter struct{}\n"},
		{"Word Ladder", "ruby", "def ladder_length(begin_word, end_word, words)\nend\n"},
	}
	seedCandidates = []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Ken Thompson", "Frances Allen"}
)

// Seed adds n sample questions and n sample pads, as AddQuestion and AddPad
// do (so they do not count against the quota). The questions belong to the
// organization's users in turn, with their author name, the
// organization's name and the pad type "live", as questions created
// through the API do. The pads start from the questions, belong to the
// organization's users in turn, were created an hour apart up to the
// clock's time, and every third one has ended, with notes. Each pad has
// one environment holding the question's code, and an event log: created,
// the candidate joined and ran the code, and for an ended pad left and
// ended; in every second pad another user of the organization joined
// invisibly (a joined event with metadata "invisible"). The same n always
// gives the same data.
func (s *Server) Seed(n int) {
	s.mu.Lock()
	users := append([]padapi.OrganizationUser(nil), s.org.Users...)
	orgName := s.org.Name
	s.mu.Unlock()
	now := s.now()
	userOf := func(i int) padapi.OrganizationUser {
		if len(users) == 0 {
			return padapi.OrganizationUser{Name: "Someone"}
		}
		return users[i%len(users)]
	}

	questions := make([]padapi.Question, n)
	for i := range n {
		sq := seedQuestions[i%len(seedQuestions)]
		title := sq.title
		if i >= len(seedQuestions) {
			title = fmt.Sprintf("%s %d", sq.title, i/len(seedQuestions)+1)
		}
		created := now.Add(-time.Duration(2*n-i) * time.Hour)
		owner := userOf(i)
		questions[i] = s.AddQuestion(padapi.Question{
			Title: title, Language: sq.language, Contents: sq.contents,
			OwnerEmail: owner.Email, AuthorName: owner.Name, OrganizationName: orgName, PadType: "live",
			Description:           "Sample question " + title + ".",
			CandidateInstructions: []padapi.CandidateInstruction{},
			CustomFiles:           []padapi.CustomFile{},
			Shared:                i%2 == 0,
			Used:                  1,
			CreatedAt:             created,
		})
	}
	for i := range n {
		q := questions[i]
		candidate := seedCandidates[i%len(seedCandidates)]
		created := now.Add(-time.Duration(n-i) * time.Hour)
		updated := created.Add(50 * time.Minute)
		p := padapi.Pad{
			Title:            fmt.Sprintf("Interview with %s: %s", candidate, q.Title),
			Language:         q.Language,
			Contents:         q.Contents,
			Participants:     []string{candidate},
			ExecutionEnabled: true,
			CreatedAt:        created,
			UpdatedAt:        updated,
		}
		p.QuestionIDs = []padapi.ID{q.ID}
		owner := userOf(i)
		p.OwnerEmail = owner.Email
		p.Events = []padapi.PadEvent{
			{Message: owner.Name + " created the pad", Kind: "created", UserName: owner.Name, UserEmail: owner.Email, CreatedAt: created},
			{Message: candidate + " joined the pad", Kind: "joined", UserName: candidate, CreatedAt: created.Add(5 * time.Minute)},
		}
		if observer := userOf(i + 1); i%2 == 1 && len(users) > 1 {
			p.Events = append(p.Events, padapi.PadEvent{Message: observer.Name + " joined the pad", Kind: "joined", Metadata: "invisible",
				UserName: observer.Name, UserEmail: observer.Email, CreatedAt: created.Add(10 * time.Minute)})
		}
		p.Events = append(p.Events,
			padapi.PadEvent{Message: candidate + " ran the code", Kind: "ran", Metadata: q.Language, UserName: candidate, CreatedAt: created.Add(30 * time.Minute)})
		if i%3 == 0 {
			p.EndedAt = padapi.Ptr(updated)
			p.Notes = "Solid on the basics; ran out of time on the follow-up."
			p.Events = append(p.Events,
				padapi.PadEvent{Message: candidate + " left the pad", Kind: "left", UserName: candidate, CreatedAt: updated.Add(-time.Minute)},
				padapi.PadEvent{Message: owner.Name + " ended the pad", Kind: "ended", UserName: owner.Name, UserEmail: owner.Email, CreatedAt: updated},
			)
		}
		s.AddPad(p)
	}
}
