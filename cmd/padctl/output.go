package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/padinterview/padapi"
)

// print writes v as JSON with --json, else as text. The JSON is the
// library's own marshalling, which is the service's wire shape, so a script
// can decode it into padapi's types.
func (a *app) print(v any, text func(io.Writer)) error {
	if !a.json {
		text(a.stdout)
		return nil
	}
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	// Code and descriptions are full of < > &: keep them readable.
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printQuota writes one line such as "12 of 50 pads used, 38 left, resets
// 2026-11-01". The service documents quota_reset_at as the last reset; a
// date that has passed is shown as such rather than as the next one.
func printQuota(w io.Writer, q *padapi.Quota, now time.Time) {
	var reset string
	switch {
	case q.QuotaResetAt.IsZero():
	case q.QuotaResetAt.After(now):
		reset = ", resets " + q.QuotaResetAt.Format(time.DateOnly)
	default:
		reset = ", last reset " + q.QuotaResetAt.Format(time.DateOnly)
	}
	left, unlimited := q.Remaining()
	if unlimited {
		fmt.Fprintf(w, "unlimited plan, %d pads used%s\n", q.PadsUsed, reset)
		return
	}
	fmt.Fprintf(w, "%d of %d pads used, %d left%s\n", q.PadsUsed, *q.MonthlyPadLimit, left, reset)
}

func padTable(w io.Writer, pads []padapi.Pad) {
	if len(pads) == 0 {
		fmt.Fprintln(w, "no pads")
		return
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "ID\tTITLE\tLANGUAGE\tOWNER\tUPDATED (UTC)\tSTATE")
	for _, p := range pads {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", cell(p.ID), cell(p.Title), cell(p.Language),
			cell(p.OwnerEmail), shortTime(p.UpdatedAt), cell(padState(&p)))
	}
	tw.Flush()
}

func questionTable(w io.Writer, qs []padapi.Question) {
	if len(qs) == 0 {
		fmt.Fprintln(w, "no questions")
		return
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "ID\tTITLE\tLANGUAGE\tAUTHOR\tUSED\tUPDATED (UTC)")
	for _, q := range qs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", cell(string(q.ID)), cell(q.Title), cell(q.Language),
			cell(q.AuthorName), q.Used, shortTime(q.UpdatedAt))
	}
	tw.Flush()
}

func padState(p *padapi.Pad) string {
	switch {
	case p.State != "":
		return p.State
	case p.EndedAt != nil:
		return "ended"
	}
	return "open"
}

func printPad(w io.Writer, p *padapi.Pad) {
	tw := newTable(w)
	field(tw, "ID", p.ID)
	field(tw, "Title", p.Title)
	field(tw, "Language", p.Language)
	field(tw, "Owner", p.OwnerEmail)
	state := padState(p)
	if p.EndedAt != nil {
		state += " at " + longTime(*p.EndedAt)
	}
	field(tw, "State", state)
	field(tw, "Private", yesNo(p.Private))
	field(tw, "Execution", yesNo(p.ExecutionEnabled))
	field(tw, "Participants", strings.Join(p.Participants, ", "))
	field(tw, "Created", longTime(p.CreatedAt))
	field(tw, "Updated", longTime(p.UpdatedAt))
	field(tw, "URL", p.URL)
	field(tw, "Playback", p.Playback)
	field(tw, "History", p.History)
	switch {
	case p.EventsURL != "":
		field(tw, "Events", p.EventsURL)
	case len(p.Events) > 0:
		field(tw, "Events", strconv.Itoa(len(p.Events)))
	}
	tw.Flush()
	block(w, "Notes", p.Notes)
	block(w, "Contents", p.Contents)
}

func printQuestion(w io.Writer, q *padapi.Question) {
	tw := newTable(w)
	field(tw, "ID", string(q.ID))
	field(tw, "Title", q.Title)
	field(tw, "Language", q.Language)
	field(tw, "Author", q.AuthorName)
	field(tw, "Owner", q.OwnerEmail)
	field(tw, "Shared", yesNo(q.Shared))
	field(tw, "Used", strconv.Itoa(q.Used))
	field(tw, "Created", longTime(q.CreatedAt))
	field(tw, "Updated", longTime(q.UpdatedAt))
	tw.Flush()
	block(w, "Description", q.Description)
	block(w, "Contents", q.Contents)
	block(w, "Solution", q.Solution)
}

func printOrganization(w io.Writer, o *padapi.Organization) {
	tw := newTable(w)
	field(tw, "Name", o.Name)
	field(tw, "Users", strconv.Itoa(o.UserCount))
	field(tw, "Default language", o.DefaultLanguage)
	sso := yesNo(o.SingleSignOnSupported)
	if o.SingleSignInURL != "" {
		sso += " (" + o.SingleSignInURL + ")"
	}
	field(tw, "Single sign-on", sso)
	tw.Flush()
	if len(o.Users) == 0 {
		return
	}
	fmt.Fprintln(w)
	// Teams appear in live responses only; without them the column would
	// be empty.
	teams := slices.ContainsFunc(o.Users, func(u padapi.OrganizationUser) bool { return len(u.Teams) > 0 })
	tw = newTable(w)
	if teams {
		fmt.Fprintln(tw, "EMAIL\tNAME\tTEAMS")
	} else {
		fmt.Fprintln(tw, "EMAIL\tNAME")
	}
	for _, u := range o.Users {
		if teams {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", cell(u.Email), cell(u.Name), cell(strings.Join(u.Teams, ", ")))
		} else {
			fmt.Fprintf(tw, "%s\t%s\n", cell(u.Email), cell(u.Name))
		}
	}
	tw.Flush()
}

func printStats(w io.Writer, s *padapi.OrganizationStats) {
	fmt.Fprintf(w, "%d pads created from %s to %s\n", s.PadsCreated, longTime(s.StartTime), longTime(s.EndTime))
	if len(s.Users) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := newTable(w)
	fmt.Fprintln(tw, "EMAIL\tNAME\tPADS")
	for _, u := range s.Users {
		fmt.Fprintf(tw, "%s\t%s\t%d\n", cell(u.Email), cell(u.Name), u.PadsCreated)
	}
	tw.Flush()
}

// field writes one "Name: value" row, skipping empty values.
func field(w io.Writer, name, value string) {
	if value != "" {
		fmt.Fprintf(w, "%s:\t%s\n", name, cell(value))
	}
}

// block writes a multi-line text under a heading, indented.
func block(w io.Writer, name, text string) {
	text = strings.TrimRight(clean(text, true), "\n")
	if text == "" {
		return
	}
	fmt.Fprintf(w, "\n%s:\n    %s\n", name, strings.ReplaceAll(text, "\n", "\n    "))
}

// cell makes a value safe for one table cell.
func cell(s string) string { return clean(s, false) }

// clean replaces control characters, which the service's data may hold
// (pad titles and contents are typed by people), so that they can neither
// break a table's columns nor send escape sequences to the terminal.
// Multi-line text keeps its newlines and tabs.
func clean(s string, multiline bool) string {
	return strings.Map(func(r rune) rune {
		if multiline && (r == '\n' || r == '\t') {
			return r
		}
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func shortTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04")
}

func longTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// progress counts fetched items on stderr while --all pages through a list,
// on a terminal only: a log file or a pipe gets nothing.
type progress struct {
	w     io.Writer // nil when stderr is not a terminal
	noun  string
	width int // of the last line written, to blank it at the end
}

func newProgress(stderr io.Writer, noun string) *progress {
	p := &progress{noun: noun}
	if isTerminal(stderr) {
		p.w = stderr
	}
	return p
}

// update is called after each item. It writes when a page's worth has
// come in, so the count moves while the next page is fetched.
func (p *progress) update(n int) {
	if p.w == nil || n%50 != 0 {
		return
	}
	line := fmt.Sprintf("fetched %d %s...", n, p.noun)
	fmt.Fprint(p.w, "\r"+line)
	p.width = len(line)
}

// done blanks the progress line, so the terminal shows only the result.
func (p *progress) done() {
	if p.w != nil && p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		p.width = 0
	}
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
