// view.go: how the tools show the service's values: compact rows, long texts cut with markers.

package padmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/padinterview/padapi"
)

// Sizes of what a tool shows of one text before cutting it.
const (
	rowBytes    = 200      // a title or name in a list row
	eventBytes  = 500      // one event's line
	fieldBytes  = 16 << 10 // a pad's contents or notes, a question's texts
	reserve     = 4 << 10  // room for the envelope and markers
	cursorBytes = 512      // a paging cursor handed to the model
)

// clip returns s with the secrets redacted, then cut to at most n bytes of
// JSON (as a string's escapes count), with a marker that says what was cut
// and how to read the rest. Redacting first means no part of a secret is
// left where the cut falls.
func (ts *toolset) clip(s string, n int, how string) string {
	s = ts.redact(s)
	if jsonLen(s) <= n {
		return s
	}
	cut, used := 0, 0
	for i, r := range s {
		w := runeJSONLen(r)
		if used+w > n {
			break
		}
		used += w
		cut = i + utf8.RuneLen(r)
	}
	return s[:cut] + fmt.Sprintf("\n[truncated: %d of %d bytes shown; %s]", cut, len(s), how)
}

// clipOf is clip for a text that was already cut to kept from size bytes
// as the service sent it: the marker counts the size sent.
func (ts *toolset) clipOf(kept string, size, n int, how string) string {
	if size == len(kept) {
		return ts.clip(kept, n, how)
	}
	s := ts.clip(kept, n, how)
	if i := strings.LastIndex(s, "\n[truncated: "); i >= 0 {
		s = s[:i]
	}
	return s + fmt.Sprintf("\n[truncated: %d of %d bytes shown; %s]", len(s), size, how)
}

// jsonLen is the length of s as a JSON string's contents.
func jsonLen(s string) int {
	n := 0
	for _, r := range s {
		n += runeJSONLen(r)
	}
	return n
}

// runeJSONLen is the length of r in a JSON string written by encoding/json
// without HTML escaping.
func runeJSONLen(r rune) int {
	switch {
	case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t' || r == '\b' || r == '\f':
		return 2
	case r < 0x20 || r == utf8.RuneError || r == '\u2028' || r == '\u2029':
		return 6
	}
	return utf8.RuneLen(r)
}

// padState is the service's state when it sends one, else open or ended,
// as padctl shows it.
func padState(p *padapi.Pad) string {
	switch {
	case p.State != "":
		return p.State
	case p.EndedAt != nil:
		return "ended"
	}
	return "open"
}

// padRow is a pad in a list.
type padRow struct {
	ID         string     `json:"id" jsonschema:"the pad's ID"`
	Title      string     `json:"title" jsonschema:"the pad's title"`
	Language   string     `json:"language" jsonschema:"the pad's language"`
	State      string     `json:"state" jsonschema:"the pad's state, such as open or ended"`
	OwnerEmail string     `json:"owner_email" jsonschema:"the owner's email, as the service sent it"`
	CreatedAt  time.Time  `json:"created_at" jsonschema:"when the pad was created"`
	UpdatedAt  time.Time  `json:"updated_at" jsonschema:"when the pad last changed"`
	EndedAt    *time.Time `json:"ended_at" jsonschema:"when the pad was ended; null while open"`
}

// padRow is p as a row of a list.
func (ts *toolset) padRow(p *padapi.Pad) padRow {
	return padRow{ID: ts.clip(string(p.ID), rowBytes, "cut"), Title: ts.clip(p.Title, rowBytes, "cut"),
		Language: ts.clip(p.Language, rowBytes, "cut"), State: ts.clip(padState(p), rowBytes, "cut"),
		OwnerEmail: ts.clip(p.OwnerEmail, rowBytes, "cut"), CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, EndedAt: p.EndedAt}
}

// eventLine is an event as one line: time, kind, who, message.
func (ts *toolset) eventLine(e *padapi.PadEvent) string {
	line := e.CreatedAt.UTC().Format(time.RFC3339) + " " + e.Kind + " " + e.UserName
	if e.UserEmail != "" {
		line += " <" + e.UserEmail + ">"
	}
	line += ": " + e.Message
	if e.Metadata != "" {
		line += " (" + e.Metadata + ")"
	}
	return ts.clip(line, eventBytes, "cut")
}

// questionRow is a question in a list.
func (ts *toolset) questionRow(q *padapi.Question) questionRow {
	return questionRow{ID: ts.clip(string(q.ID), rowBytes, "cut"), Title: ts.clip(q.Title, rowBytes, "cut"),
		Language: ts.clip(q.Language, rowBytes, "cut"), Shared: q.Shared, IsDraft: q.IsDraft, Used: q.Used, UpdatedAt: q.UpdatedAt}
}

// userRows are users in a list.
func (ts *toolset) userRows(users []padapi.OrganizationUser) []userRow {
	rows := make([]userRow, len(users))
	for i, u := range users {
		rows[i] = userRow{Email: ts.clip(u.Email, rowBytes, "cut"), Name: ts.clip(u.Name, rowBytes, "cut"), Teams: ts.teamNames(u.Teams)}
	}
	return rows
}

// teams are teams as a result shows them.
func (ts *toolset) teams(teams []padapi.Team) []teamView {
	out := make([]teamView, 0, min(len(teams), 100))
	for _, t := range teams[:min(len(teams), 100)] {
		out = append(out, teamView{ID: ts.clip(string(t.ID), rowBytes, "cut"), Name: ts.clip(t.Name, rowBytes, "cut")})
	}
	return out
}

// teamNames are a user's teams' names.
func (ts *toolset) teamNames(names []string) []string {
	out := make([]string, 0, min(len(names), 100))
	for _, n := range names[:min(len(names), 100)] {
		out = append(out, ts.clip(n, rowBytes, "cut"))
	}
	return out
}

// idStrings are ids as strings.
func idStrings(ids []padapi.ID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = string(id)
	}
	return out
}

// idString is id as a string, or nil.
func idString(id *padapi.ID) *string {
	if id == nil {
		return nil
	}
	s := string(*id)
	return &s
}

// envViews shows environments and their files in budget bytes, shared out
// between the files; a cut file's marker says how to read the rest.
func (ts *toolset) envViews(padID string, t *padTranscript, budget int) []envView {
	envs, active := t.Environments, t.Pad.ActiveEnvironmentID
	files := 0
	for _, e := range envs {
		files += len(e.Files)
	}
	per := budget
	if files > 0 {
		per = budget/files - 256
	}
	out := make([]envView, len(envs))
	for i, e := range envs {
		fs := make([]fileView, len(e.Files))
		for j, f := range e.Files {
			fv := fileView{Path: ts.clip(f.Path, rowBytes, "cut"), Bytes: t.size(e.ID, &f), HasHistory: f.History != ""}
			switch {
			case f.Binary:
				fv.Binary = true
			case per < 64:
				fv.ContentsOmitted = fmt.Sprintf("too many files to show; get_pad_history {id: %q, environment_id: %q, path: %q}", padID, e.ID, f.Path)
			default:
				fv.Contents = ts.clipOf(f.Contents, t.size(e.ID, &f), per, fmt.Sprintf("get_pad_history {id: %q, environment_id: %q, path: %q, offset: N} reads from byte N", padID, e.ID, f.Path))
			}
			fs[j] = fv
		}
		out[i] = envView{ID: string(e.ID), Language: e.Language, Active: active != nil && *active == e.ID, QuestionID: idString(e.QuestionID), Files: fs}
	}
	return out
}

// transcriptView fits a transcript into budget bytes: the pad, then the
// files (at most half the budget), then as many events as fit.
func (ts *toolset) transcriptView(id string, t *padTranscript, budget int) *transcriptResult {
	p := t.Pad
	notes := ts.clip(p.Notes, min(fieldBytes, budget/8), "the notes are cut here")
	title := ts.clip(p.Title, rowBytes, "cut")
	budget -= jsonLen(title) + jsonLen(notes) + 512
	out := &transcriptResult{ID: string(p.ID), Title: title, Language: ts.clip(p.Language, rowBytes, "cut"),
		State: ts.clip(padState(p), rowBytes, "cut"), OwnerEmail: ts.clip(p.OwnerEmail, rowBytes, "cut"), Participants: p.Participants,
		CreatedAt: p.CreatedAt, EndedAt: p.EndedAt, Notes: notes}
	envs := ts.envViews(id, t, budget/2)
	b, _ := json.Marshal(envs)
	budget -= len(b)
	events := []string{}
	for _, line := range t.Events {
		if budget -= jsonLen(line) + 3; budget < 0 {
			break
		}
		events = append(events, line)
	}
	out.Events = events
	of := "more"
	if !t.EventsCut {
		out.EventsTotal = padapi.Ptr(len(t.Events))
		of = fmt.Sprint(len(t.Events))
	}
	if n := len(events); n < len(t.Events) || t.EventsCut {
		out.EventsTruncated = fmt.Sprintf("events 1 to %d of %s shown; call list_pad_events {id: %q, page: %d} and on for the rest (50 a page, oldest first), "+
			"or get_pad_transcript with a larger max_bytes (up to %d)", n, of, id, n/50+1, maxTranscriptBytes)
	}
	if t.EnvsSkipped > 0 {
		out.EnvironmentsOmitted = fmt.Sprintf("%d more environments not shown; get_pad lists them all, get_pad_history reads any", t.EnvsSkipped)
	}
	out.Environments = envs
	return out
}

// nextArgs are the arguments that fetch the page next names (from the
// library's Page.Next; ok false on the last page): its page, cursor and
// sort, with extra; nil on the last page. A cursor over cursorBytes is not
// handed on (it is the service's text, and a model reads it verbatim):
// note says so instead.
func nextArgs(next padapi.ListOptions, ok bool, extra map[string]any) (args map[string]any, note string) {
	if !ok {
		return nil, ""
	}
	args = map[string]any{}
	for k, v := range extra {
		args[k] = v
	}
	if next.Page > 0 {
		args["page"] = next.Page
	}
	switch c := next.Cursor; {
	case len(c) > cursorBytes:
		return nil, fmt.Sprintf("the service's next_page cursor is %d bytes, over the %d this tool hands on: no further page", len(c), cursorBytes)
	case c != "":
		args["cursor"] = c
	}
	if next.Page <= 0 && next.Cursor == "" {
		return nil, "" // a link without paging: nothing a tool can take
	}
	if slices.Contains(sortValues, string(next.Sort)) {
		args["sort"] = string(next.Sort)
	}
	return args, ""
}

// dryRun makes call under padapi.WithDryRun, so that the library
// validates and encodes the request without sending it, and describes what
// it would have sent: its method and path, and the fields given.
func (ts *toolset) dryRun(ctx context.Context, fields map[string]string, call func(context.Context) error) (any, error) {
	var req padapi.Request
	err := call(padapi.WithDryRun(ctx, &req))
	switch {
	case err == nil:
		return nil, errors.New("the dry run was sent: the library did not stop it (a bug in padmcp)")
	case !errors.Is(err, padapi.ErrDryRun):
		return nil, err
	}
	shown := make(map[string]string, len(fields))
	for k, v := range fields {
		shown[k] = ts.clip(v, 1024, "cut for display; the call would send all of it")
	}
	return &dryRunResult{DryRun: true, Sent: false, WouldSend: req.Method + " " + req.Path, Fields: shown,
		Note: "Nothing was sent. Call again without dry_run to do it."}, nil
}

// field records a field for a dry run and returns a pointer for params, or
// nil when v is "" (not sent).
func field(fields map[string]string, name, v string) *string {
	if v == "" {
		return nil
	}
	fields[name] = v
	return &v
}
