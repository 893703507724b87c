package cmdutil

import "github.com/padinterview/padapi"

// The views of the resources more than one command group prints.

// PadView prints pads: pads list, get, create and update, and org pads.
var PadView = View[padapi.Pad]{
	Noun: "pads",
	Cols: []Column[padapi.Pad]{
		{Name: "ID", Value: func(p *padapi.Pad) any { return p.ID }},
		{Name: "Title", Value: func(p *padapi.Pad) any { return p.Title }},
		{Name: "Language", Value: func(p *padapi.Pad) any { return p.Language }},
		{Name: "Owner", Value: func(p *padapi.Pad) any { return p.OwnerEmail }},
		{Name: "State", Value: func(p *padapi.Pad) any { return PadState(p) }},
		{Name: "Updated", Value: func(p *padapi.Pad) any { return p.UpdatedAt }},
	},
	Detail: []Column[padapi.Pad]{
		{Name: "Created", Value: func(p *padapi.Pad) any { return p.CreatedAt }},
		{Name: "Ended", Value: func(p *padapi.Pad) any { return p.EndedAt }},
		{Name: "Private", Value: func(p *padapi.Pad) any { return p.Private }},
		{Name: "Execution", Value: func(p *padapi.Pad) any { return p.ExecutionEnabled }},
		{Name: "Participants", Value: func(p *padapi.Pad) any { return p.Participants }},
		{Name: "Questions", Value: func(p *padapi.Pad) any { return p.QuestionIDs }},
		{Name: "Environments", Value: padEnvironments},
		{Name: "URL", Value: func(p *padapi.Pad) any { return p.URL }},
		{Name: "Playback", Value: func(p *padapi.Pad) any { return p.Playback }},
	},
	Blocks: func(p *padapi.Pad) []Block {
		return []Block{{Name: "Notes", Text: p.Notes}, {Name: "Contents", Text: p.Contents}}
	},
}

// PadState is the service's state of a pad when it sends one, else open or
// ended.
func PadState(p *padapi.Pad) string {
	switch {
	case p.State != "":
		return p.State
	case p.EndedAt != nil:
		return "ended"
	}
	return "open"
}

// QuestionView prints questions: questions list and get, and org questions.
var QuestionView = View[padapi.Question]{
	Noun: "questions",
	Cols: []Column[padapi.Question]{
		{Name: "ID", Value: func(q *padapi.Question) any { return q.ID }},
		{Name: "Title", Value: func(q *padapi.Question) any { return q.Title }},
		{Name: "Language", Value: func(q *padapi.Question) any { return q.Language }},
		{Name: "Author", Value: func(q *padapi.Question) any { return q.AuthorName }},
		{Name: "Used", Value: func(q *padapi.Question) any { return q.Used }},
		{Name: "Updated", Value: func(q *padapi.Question) any { return q.UpdatedAt }},
	},
	Detail: []Column[padapi.Question]{
		{Name: "Owner", Value: func(q *padapi.Question) any { return q.OwnerEmail }},
		{Name: "Shared", Value: func(q *padapi.Question) any { return q.Shared }},
		{Name: "Draft", Value: func(q *padapi.Question) any { return q.IsDraft }},
		{Name: "Created", Value: func(q *padapi.Question) any { return q.CreatedAt }},
	},
	Blocks: func(q *padapi.Question) []Block {
		b := []Block{{Name: "Description", Text: q.Description}}
		for _, in := range q.CandidateInstructions {
			b = append(b, Block{Name: "Instructions", Text: in.Instructions})
		}
		return append(b, Block{Name: "Contents", Text: q.Contents}, Block{Name: "Solution", Text: q.Solution},
			Block{Name: "AI assist prompt", Text: q.AIAssistPrompt})
	},
}

// padEnvironments is a pad's environments as the library decides them
// (Pad.EnvironmentIDs: distinct, non-empty, the active one too), or why
// the pad's list names none.
func padEnvironments(p *padapi.Pad) any {
	ids, err := p.EnvironmentIDs()
	if err != nil {
		return err.Error()
	}
	return ids
}
