// pads.go: the pad tools: lists, one pad, its events, code, history and transcript, and the writes.

package padmcp

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/cliarg"
)

type listPadsArgs struct {
	Sort   string `json:"sort,omitempty" jsonschema:"order of the list: created or updated, optionally followed by ,asc or ,desc (created_at,desc and the like work too); default created (newest first)"`
	Page   int    `json:"page,omitempty" jsonschema:"1-based page number, 50 pads a page; take it from next_page"`
	Cursor string `json:"cursor,omitempty" jsonschema:"paging cursor, when a previous next_page gave one"`
	Skip   int    `json:"skip,omitempty" jsonschema:"with filters: pads of the page to pass over, from next_page"`
	Limit  int    `json:"limit,omitempty" jsonschema:"most pads in the answer, 1 to 50 (default 50): with filters, the walk stops once this many pass"`
	padFilterArgs
}

// padListResult is list_pads' result.
type padListResult struct {
	// The members before the rows, so that a result cut at its cap keeps
	// them.
	Total        int            `json:"total" jsonschema:"the service's count of the caller's pads, all pages, before any filter"`
	NextPage     map[string]any `json:"next_page" jsonschema:"the arguments of the next page; null on the last"`
	NextPageNote string         `json:"next_page_note,omitempty" jsonschema:"why there is no next_page although the service gave one"`
	Walked       int            `json:"walked,omitempty" jsonschema:"with filters: how many pads were read"`
	Note         string         `json:"note,omitempty" jsonschema:"with filters: why the walk stopped before a page of answers was full"`
	Pads         []padRow       `json:"pads" jsonschema:"the page's pads (with filters: those that pass, up to 50)"`
}

type padIDArgs struct {
	ID string `json:"id" jsonschema:"the pad's ID, such as DM32JWG2 (from list_pads)"`
}

type padEventsArgs struct {
	ID   string `json:"id" jsonschema:"the pad's ID, such as DM32JWG2 (from list_pads)"`
	Page int    `json:"page,omitempty" jsonschema:"1-based page number, 50 events a page, oldest first; take it from next_page"`
}

type padTranscriptArgs struct {
	ID       string `json:"id" jsonschema:"the pad's ID, such as DM32JWG2 (from list_pads)"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"most bytes in the answer, 4096 to 262144; default 65536"`
}

type createPadArgs struct {
	Title      string `json:"title,omitempty" jsonschema:"the pad's title; default Untitled Pad"`
	Language   string `json:"language,omitempty" jsonschema:"the pad's language, such as python3 or javascript; default the account's"`
	Contents   string `json:"contents,omitempty" jsonschema:"the code the pad starts with; not with question_id"`
	QuestionID string `json:"question_id,omitempty" jsonschema:"start the pad from this question (its language and code); not with contents"`
	Notes      string `json:"notes,omitempty" jsonschema:"the interviewer's notes"`
	DryRun     bool   `json:"dry_run,omitempty" jsonschema:"describe what would be sent, and send nothing"`
	TeamID     string `json:"team_id,omitempty" jsonschema:"the team the pad belongs to (get_organization lists the teams)"`
	TakeHome   *bool  `json:"take_home,omitempty" jsonschema:"make it a take-home pad"`
	// TakeHomeTimeLimit is take_home_time_limit, in minutes.
	TakeHomeTimeLimit *int  `json:"take_home_time_limit,omitempty" jsonschema:"a take-home pad's time limit, in minutes"`
	AIAssistEnabled   *bool `json:"ai_assist_enabled,omitempty" jsonschema:"let the candidate use the AI assistant"`
	padControls
}

// padControls are the interview controls create_pad and update_pad share.
type padControls struct {
	RestrictInterviewerAccess *bool    `json:"restrict_interviewer_access,omitempty" jsonschema:"only the owner and allowed_interviewer_emails may join as interviewers"`
	AllowedInterviewerEmails  []string `json:"allowed_interviewer_emails,omitempty" jsonschema:"the interviewers who may join a restricted pad; an empty list clears it"`
	DisableCoachingTips       *bool    `json:"disable_coaching_tips,omitempty" jsonschema:"hide the interviewer's coaching tips"`
}

// record records the controls given for a dry run.
func (c padControls) record(fields map[string]string) {
	for name, v := range map[string]*bool{"restrict_interviewer_access": c.RestrictInterviewerAccess, "disable_coaching_tips": c.DisableCoachingTips} {
		if v != nil {
			fields[name] = fmt.Sprint(*v)
		}
	}
	if c.AllowedInterviewerEmails != nil {
		fields["allowed_interviewer_emails"] = fmt.Sprintf("%q", c.AllowedInterviewerEmails)
	}
}

type updatePadArgs struct {
	ID       string `json:"id" jsonschema:"the pad's ID, such as DM32JWG2 (from list_pads)"`
	Title    string `json:"title,omitempty" jsonschema:"new title; omit to keep"`
	Language string `json:"language,omitempty" jsonschema:"new language, such as python3; omit to keep"`
	Contents string `json:"contents,omitempty" jsonschema:"new editor contents; omit to keep"`
	Notes    string `json:"notes,omitempty" jsonschema:"new interviewer's notes; omit to keep"`
	DryRun   bool   `json:"dry_run,omitempty" jsonschema:"describe what would be sent, and send nothing"`
	// UserEmail hands the pad to a new owner.
	UserEmail string `json:"user_email,omitempty" jsonschema:"hand the pad to the user with this email (its new owner)"`
	padControls
}

type endPadArgs struct {
	ID     string `json:"id" jsonschema:"the pad's ID, such as DM32JWG2 (from list_pads)"`
	DryRun bool   `json:"dry_run,omitempty" jsonschema:"describe what would be sent, and send nothing"`
}

// sortValues are the service's orders, as next_page links carry them.
var sortValues = []string{string(padapi.SortCreatedDesc), string(padapi.SortCreatedAsc), string(padapi.SortUpdatedDesc), string(padapi.SortUpdatedAsc)}

// pageSchema makes the page property at least 1.
func pageSchema(s *jsonschema.Schema) {
	s.Properties["page"].Minimum = padapi.Ptr(1.0)
}

// listSchema bounds a list's page and cursor.
func listSchema(s *jsonschema.Schema) {
	pageSchema(s)
	if c := s.Properties["cursor"]; c != nil {
		c.MaxLength = padapi.Ptr(cursorBytes)
	}
}

// sortArg reads a sort argument as padctl's --sort does; "" is the
// service's default.
func sortArg(v string) (padapi.Sort, error) {
	if v == "" {
		return "", nil
	}
	s, err := cliarg.Sort(v)
	if err != nil {
		return "", argError("sort", "%q: %v", v, err)
	}
	return s, nil
}

// listPads is list_pads: one page of pads, or with filters the pads that
// pass them, read while the list streams.
func listPads(ts *toolset) serverTool {
	return newTool(ts, spec[listPadsArgs]{kind: read, schema: func(s *jsonschema.Schema) {
		listSchema(s)
		s.Properties["skip"].Minimum = padapi.Ptr(0.0)
		s.Properties["skip"].Maximum = padapi.Ptr(float64(filteredPage))
		s.Properties["limit"].Minimum = padapi.Ptr(1.0)
		s.Properties["limit"].Maximum = padapi.Ptr(float64(filteredPage))
	}, tool: &mcp.Tool{Name: "list_pads", Title: "List pads",
		Description: "One page (50) of the caller's pads as compact rows: id, title, language, state, owner, times. " +
			"With owner, state, language or a created/updated window, the next 50 pads that pass, read page by page " +
			"(stopping early where the order allows). next_page holds the arguments for the next page (null on the last). " +
			"Lists lag about a minute behind get_pad."}},
		func(ctx context.Context, a listPadsArgs) (*padListResult, error) {
			f, err := a.filter()
			if err != nil {
				return nil, err
			}
			if f.any() || a.Limit > 0 {
				return ts.filteredList(ctx, a, f)
			}
			if a.Skip != 0 {
				return nil, argError("skip", "goes with the filters next_page names, not alone")
			}
			sort, err := sortArg(a.Sort)
			if err != nil {
				return nil, err
			}
			opts := padapi.ListOptions{Sort: sort, Page: a.Page, Cursor: a.Cursor}
			lo := padapi.PadListOptions(opts)
			page, err := ts.client(ctx).Pads.List(ctx, &lo)
			if err != nil {
				return nil, err
			}
			out := &padListResult{Total: page.Total, Pads: make([]padRow, len(page.Items))}
			for i := range page.Items {
				out.Pads[i] = ts.padRow(&page.Items[i])
			}
			next, ok := page.Next(opts)
			out.NextPage, out.NextPageNote = nextArgs(next, ok, nil)
			return out, nil
		})
}

// getPad is get_pad: one pad, its long texts cut.
func getPad(ts *toolset) serverTool {
	return newTool(ts, spec[padIDArgs]{kind: read, tool: &mcp.Tool{Name: "get_pad", Title: "Get a pad",
		Description: "One pad: title, language, state, participants, notes, the editor's contents, its environments and links. " +
			"Long contents and notes are cut; get_pad_code and get_pad_history read files in full."}},
		func(ctx context.Context, a padIDArgs) (*padResult, error) {
			p, err := ts.client(ctx).Pads.Get(ctx, padapi.ID(a.ID))
			if err != nil {
				return nil, err
			}
			envs, err := p.EnvironmentIDs()
			if err != nil {
				return nil, err
			}
			return &padResult{padRow: ts.padRow(p), Participants: p.Participants, Private: p.Private, ExecutionEnabled: p.ExecutionEnabled,
				EnvironmentIDs: idStrings(envs), ActiveEnvironmentID: idString(p.ActiveEnvironmentID), QuestionIDs: idStrings(p.QuestionIDs),
				URL: p.URL, Playback: p.Playback, Notes: ts.clip(p.Notes, fieldBytes, "the notes are cut here"),
				Contents: ts.clip(p.Contents, fieldBytes, fmt.Sprintf("get_pad_history {id: %q, offset: N} reads the active file from byte N", a.ID))}, nil
		})
}

// listPadEvents is list_pad_events: one page of a pad's events.
func listPadEvents(ts *toolset) serverTool {
	return newTool(ts, spec[padEventsArgs]{kind: read, schema: pageSchema, tool: &mcp.Tool{Name: "list_pad_events", Title: "List a pad's events",
		Description: "One page (50) of what happened in a pad, oldest first: who joined and left, what ran. next_page continues."}},
		func(ctx context.Context, a padEventsArgs) (*eventsResult, error) {
			opts := padapi.ListOptions{Sort: padapi.SortCreatedAsc, Page: a.Page}
			eo := padapi.PadEventListOptions(opts)
			page, err := ts.client(ctx).Pads.ListEvents(ctx, padapi.ID(a.ID), &eo)
			if err != nil {
				return nil, err
			}
			rows := make([]string, len(page.Items))
			for i := range page.Items {
				rows[i] = ts.eventLine(&page.Items[i])
			}
			n, more := page.Next(opts)
			next, note := nextArgs(n, more, map[string]any{"id": a.ID})
			return &eventsResult{Total: page.Total, Events: rows, NextPage: next, NextPageNote: note}, nil
		})
}

// getPadCode is get_pad_code: the final code of each environment. It reads
// them through Pads.Transcript, the library's one fan-out over a pad's
// environments: each distinct environment once, a fixed number at a time,
// whatever the pad lists.
func getPadCode(ts *toolset) serverTool {
	return newTool(ts, spec[padIDArgs]{kind: read, tool: &mcp.Tool{Name: "get_pad_code", Title: "Get a pad's final code",
		Description: "The final code of every file in each of a pad's environments (one per language or question it used). " +
			"Long files are cut with a marker; get_pad_history reads one file from any offset."}},
		func(ctx context.Context, a padIDArgs) (*codeResult, error) {
			budget := ts.opts.MaxResultBytes - reserve
			t, err := ts.transcript(ctx, a.ID, budget, false)
			if err != nil {
				return nil, err
			}
			return &codeResult{PadID: string(t.Pad.ID), Environments: ts.envViews(a.ID, t, budget)}, nil
		})
}

// transcriptLimit is get_pad_transcript's size cap for max_bytes.
func (ts *toolset) transcriptLimit(maxBytes int) int {
	if maxBytes <= 0 {
		return ts.opts.MaxResultBytes
	}
	return min(max(maxBytes, minResultBytes), maxTranscriptBytes)
}

// getPadTranscript is get_pad_transcript: everything about one interview.
func getPadTranscript(ts *toolset) serverTool {
	return newTool(ts, spec[padTranscriptArgs]{kind: read, tool: &mcp.Tool{Name: "get_pad_transcript", Title: "Get a pad's transcript",
		Description: "Everything about one interview in one answer: the pad, its event log (oldest first) and the final code of its files, " +
			"cut to max_bytes with markers saying how to read the rest."},
		schema: func(s *jsonschema.Schema) {
			s.Properties["max_bytes"].Minimum = padapi.Ptr(float64(minResultBytes))
			s.Properties["max_bytes"].Maximum = padapi.Ptr(float64(maxTranscriptBytes))
		},
		limit: func(a padTranscriptArgs) int { return ts.transcriptLimit(a.MaxBytes) }},
		func(ctx context.Context, a padTranscriptArgs) (*transcriptResult, error) {
			budget := ts.transcriptLimit(a.MaxBytes) - reserve
			t, err := ts.transcript(ctx, a.ID, budget, true)
			if err != nil {
				return nil, err
			}
			return ts.transcriptView(a.ID, t, budget), nil
		})
}

// createPad is create_pad.
func createPad(ts *toolset) serverTool {
	return newTool(ts, spec[createPadArgs]{kind: write, tool: &mcp.Tool{Name: "create_pad", Title: "Create a pad",
		Description: "Create a pad; it counts against the monthly quota. If the answer says the outcome is unknown, " +
			"do not call it again before list_pads shows the pad is not there (lists lag about a minute). dry_run sends nothing."}},
		func(ctx context.Context, a createPadArgs) (any, error) {
			// The library refuses what may not go together (contents with
			// question_id, a time limit under 1), before sending.
			fields := map[string]string{}
			p := &padapi.PadCreateParams{Title: field(fields, "title", a.Title), Language: field(fields, "language", a.Language),
				Contents: field(fields, "contents", a.Contents), Notes: field(fields, "notes", a.Notes)}
			if a.QuestionID != "" {
				fields["question_id"] = a.QuestionID
				p.QuestionID = padapi.Ptr(padapi.ID(a.QuestionID))
			}
			if a.TeamID != "" {
				fields["team_id"] = a.TeamID
				p.TeamID = padapi.Ptr(padapi.ID(a.TeamID))
			}
			p.TakeHome, p.TakeHomeMinutes, p.AIAssistEnabled = a.TakeHome, a.TakeHomeTimeLimit, a.AIAssistEnabled
			p.RestrictInterviewerAccess, p.AllowedInterviewerEmails, p.DisableCoachingTips = a.RestrictInterviewerAccess, a.AllowedInterviewerEmails, a.DisableCoachingTips
			a.record(fields)
			for name, v := range map[string]*bool{"take_home": a.TakeHome, "ai_assist_enabled": a.AIAssistEnabled} {
				if v != nil {
					fields[name] = fmt.Sprint(*v)
				}
			}
			if a.TakeHomeTimeLimit != nil {
				fields["take_home_time_limit"] = fmt.Sprint(*a.TakeHomeTimeLimit)
			}
			if a.DryRun {
				return ts.dryRun(ctx, fields, func(ctx context.Context) error { _, err := ts.client(ctx).Pads.Create(ctx, p); return err })
			}
			pad, err := ts.client(ctx).Pads.Create(ctx, p)
			if err != nil {
				return nil, err
			}
			return &createdPad{padCreated{ts.padRow(pad), pad.URL}}, nil
		})
}

// updatePad is update_pad.
func updatePad(ts *toolset) serverTool {
	return newTool(ts, spec[updatePadArgs]{kind: write, tool: &mcp.Tool{Name: "update_pad", Title: "Change a pad",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: padapi.Ptr(true), IdempotentHint: true},
		Description: "Change a pad's title, language, editor contents, notes, owner (user_email) or interview controls " +
			"(who may join as interviewer, coaching tips); fields left out stay as they are. dry_run sends nothing."}},
		func(ctx context.Context, a updatePadArgs) (any, error) {
			fields := map[string]string{}
			p := &padapi.PadUpdateParams{Title: field(fields, "title", a.Title), Language: field(fields, "language", a.Language),
				Contents: field(fields, "contents", a.Contents), Notes: field(fields, "notes", a.Notes), UserEmail: field(fields, "user_email", a.UserEmail),
				RestrictInterviewerAccess: a.RestrictInterviewerAccess, AllowedInterviewerEmails: a.AllowedInterviewerEmails, DisableCoachingTips: a.DisableCoachingTips}
			a.record(fields)
			if len(fields) == 0 {
				return nil, argError("title", "nothing to change: give at least one of title, language, contents, notes, user_email, "+
					"restrict_interviewer_access, allowed_interviewer_emails, disable_coaching_tips")
			}
			if a.DryRun {
				return ts.dryRun(ctx, fields, func(ctx context.Context) error {
					_, err := ts.client(ctx).Pads.Update(ctx, padapi.ID(a.ID), p)
					return err
				})
			}
			pad, err := ts.client(ctx).Pads.Update(ctx, padapi.ID(a.ID), p)
			if err != nil {
				return nil, err
			}
			return &updatedPad{ts.padRow(pad)}, nil
		})
}

// endPad is end_pad.
func endPad(ts *toolset) serverTool {
	return newTool(ts, spec[endPadArgs]{kind: write, confirm: func(a endPadArgs) string {
		if a.DryRun {
			return ""
		}
		return fmt.Sprintf("End pad %s? The candidate can no longer edit it, and it cannot be undone.", a.ID)
	}, tool: &mcp.Tool{Name: "end_pad", Title: "End a pad",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: padapi.Ptr(true), IdempotentHint: true},
		Description: "End a pad: the interview is over, and the candidate can no longer edit. It cannot be undone. dry_run sends nothing."}},
		func(ctx context.Context, a endPadArgs) (any, error) {
			p := &padapi.PadUpdateParams{Ended: padapi.Ptr(true)}
			if a.DryRun {
				return ts.dryRun(ctx, map[string]string{"ended": "true"}, func(ctx context.Context) error {
					_, err := ts.client(ctx).Pads.Update(ctx, padapi.ID(a.ID), p)
					return err
				})
			}
			pad, err := ts.client(ctx).Pads.Update(ctx, padapi.ID(a.ID), p)
			if err != nil {
				return nil, err
			}
			return &endedPad{ts.padRow(pad)}, nil
		})
}

// deletePad is delete_pad.
func deletePad(ts *toolset) serverTool {
	return newTool(ts, spec[padIDArgs]{kind: remove, plain: true, confirm: func(a padIDArgs) string {
		return fmt.Sprintf("Delete pad %s with its code, events and history? It cannot be undone.", a.ID)
	}, tool: &mcp.Tool{Name: "delete_pad", Title: "Delete a pad",
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true},
		Description: "Delete a pad with its code, events and history. It cannot be undone: ask the user first."}},
		func(ctx context.Context, a padIDArgs) (any, error) {
			if err := ts.client(ctx).Pads.Delete(ctx, padapi.ID(a.ID)); err != nil {
				return nil, err
			}
			return &deleted{a.ID}, nil
		})
}
