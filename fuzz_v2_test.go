package padapi_test

// Fuzz targets for the decoders of the post-interview endpoints (edit
// history, environments, events pages, users) and for the history replay.
// Each feeds any body through the whole pipeline (memoryClient) and
// through encoding/json: neither panics, errors stay bounded and name no
// internal type, and both agree on what decodes.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// ltHistoryLink is the link the fuzz targets fetch; memoryClient answers
// it like any request.
const ltHistoryLink = "https://pad-history.example.test/pads/P1/main.json?auth=tok"

// ltHistorySeeds are edit-history documents beyond testdata's: the replay
// cases that count code units, and the errors.
var ltHistorySeeds = []string{
	`{}`,
	`{"e1":{"a":"u","t":1,"o":["hi 👋!"]},"e2":{"a":"u","t":2,"o":[3,-2]}}`,
	`{"e1":{"t":1,"o":["😀"]},"e2":{"t":2,"o":[1,"x"]},"e3":{"t":3,"o":[1,-1]}}`,
	`{"e1":{"t":1,"o":["\ud83d"]},"e2":{"t":2,"o":[1,"\ude00"]}}`,
	`{"-a":{"t":5,"o":[1,"a"]},"-Z":{"t":5,"o":["Z"]}}`,
	`{"b":{"t":1.5,"o":[1,"b"]},"a":{"t":1,"o":["a"]},"c":{"t":"1.75","o":[2,"c"]}}`,
	`{"e1":{"t":1,"o":["ab"]},"e2":{"t":2,"o":[3]}}`,
	`{"e1":{"t":1,"o":["a"]},"e2":{"t":2,"o":[9223372036854775807]}}`,
	`{"e1":{"t":1,"o":[-9223372036854775807]}}`,
	`{"e":{"t":0.123457,"o":[0,"",0]}}`,
	`{"e":{"t":-1.5,"o":null,"a":12}}`,
	`{"e":{"o":[1.5],"t":1}}`,
	`{"e":7}`,
	`[1]`,
}

// ltAddHistorySeeds adds testdata's history documents and ltHistorySeeds.
func ltAddHistorySeeds(f *testing.F) {
	rlAddFiles(f, "history_*.json")
	for _, s := range ltHistorySeeds {
		f.Add([]byte(s))
	}
}

// ltRefReplay replays entries in the order given, up to and including the
// last at or before until (all of them when until is nil), the plain way:
// the text as UTF-16 code units, one operation after the other. ok is
// false when an operation runs past the end.
func ltRefReplay(entries []padapi.HistoryEntry, until *time.Time) (text string, ok bool) {
	var units []uint16
	for _, e := range entries {
		if until != nil && e.Time.After(*until) {
			break
		}
		var out []uint16
		pos := 0
		for _, op := range e.Ops {
			switch {
			case op.Retain > 0:
				if op.Retain > len(units)-pos {
					return "", false
				}
				out = append(out, units[pos:pos+op.Retain]...)
				pos += op.Retain
			case op.Delete > 0:
				if op.Delete > len(units)-pos {
					return "", false
				}
				pos += op.Delete
			default:
				out = append(out, utf16.Encode([]rune(op.Insert))...)
			}
		}
		units = append(out, units[pos:]...)
	}
	return string(utf16.Decode(units)), true
}

// ltCheckReplayErr checks a replay error: it starts by naming an entry of
// h (its ID cut at 64 bytes) and the operation, and stays short.
func ltCheckReplayErr(t *testing.T, h *padapi.History, err error) {
	t.Helper()
	text := err.Error()
	if len(text) > rlMaxErrorText {
		t.Fatalf("replay error is %d bytes: %.300q", len(text), text)
	}
	for _, e := range h.Entries {
		id := e.ID
		if len(id) > 64 {
			id = id[:64] + "..."
		}
		if strings.HasPrefix(text, fmt.Sprintf("padapi: history entry %q, operation ", id)) {
			return
		}
	}
	t.Fatalf("replay error %.300q names no entry", text)
}

// FuzzHistoryReplay decodes any document with json.Unmarshal and replays
// it: entries come in apply order, Replay and every ReplayUntil agree with
// a plain UTF-16 replay, errors name an entry, and the history survives a
// trip through its JSON.
func FuzzHistoryReplay(f *testing.F) {
	ltAddHistorySeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var h padapi.History
		if err := padapi.UnmarshalForTest(body, &h); err != nil {
			if strings.Contains(err.Error(), "Wire") || strings.Contains(err.Error(), "historyEntry") {
				t.Fatalf("decode error names an internal type: %.300q", err)
			}
			return
		}
		for i := 1; i < len(h.Entries); i++ {
			a, b := h.Entries[i-1], h.Entries[i]
			if a.Time.After(b.Time) || (a.Time.Equal(b.Time) && a.ID >= b.ID) {
				t.Fatalf("entries %q (%v) and %q (%v) out of order", a.ID, a.Time, b.ID, b.Time)
			}
		}
		text, err := h.Replay()
		want, ok := ltRefReplay(h.Entries, nil)
		if (err == nil) != ok || text != want {
			t.Fatalf("Replay() = %q, %v; the plain replay gives %q, %v", text, err, want, ok)
		}
		if err != nil {
			ltCheckReplayErr(t, &h, err)
		} else if !utf8.ValidString(text) {
			t.Fatalf("Replay() = %q, not UTF-8", text)
		}
		for _, e := range h.Entries[:min(len(h.Entries), 16)] {
			at := e.Time
			text, err := h.ReplayUntil(at)
			want, ok := ltRefReplay(h.Entries, &at)
			if (err == nil) != ok || text != want {
				t.Fatalf("ReplayUntil(%v) = %q, %v; the plain replay gives %q, %v", at, text, err, want, ok)
			}
		}
		out, err := json.Marshal(h)
		if err != nil {
			t.Fatalf("%q decodes, but does not marshal: %v", body, err)
		}
		var again padapi.History
		if err := padapi.UnmarshalForTest(out, &again); err != nil {
			t.Fatalf("%q marshals as %s, which does not decode: %v", body, out, err)
		}
		if diff := cmp.Diff(h, again, cmp.Comparer(func(a, b []padapi.HistoryEntry) bool {
			return len(a) == len(b) && (len(a) == 0 || cmp.Equal(a, b))
		})); diff != "" {
			t.Fatalf("%q: a trip through %s changes it (-before +after):\n%s", body, out, diff)
		}
	})
}

// FuzzHistoryFetch sends any body as the answer to Pads.History: no
// panic, bounded errors, and what decodes is what json.Unmarshal finds.
func FuzzHistoryFetch(f *testing.F) {
	ltAddHistorySeeds(f)
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := c.Pads.History(answering(http.StatusOK, body), ltHistoryLink)
		rlCheckError(t, err, body)
		if err != nil {
			if strings.Contains(err.Error(), "auth=tok") {
				t.Fatalf("error quotes the link's query: %q", err)
			}
			return
		}
		var direct padapi.History
		rlAgree(t, body, got, &direct, padapi.UnmarshalForTest(body, &direct))
	})
}

// FuzzEnvironment sends any body as the answer to Pads.Environment: no
// panic, bounded errors, the same environment as json.Unmarshal (which
// the pipeline refuses only without status OK or an ID), and a trip
// through its JSON changes nothing.
func FuzzEnvironment(f *testing.F) {
	rlAddFiles(f, "environment_*.json")
	f.Add([]byte(`{"status":"OK","id":"7","file_contents":[null,{"path":"a","binary":null}]}`))
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := c.Pads.Environment(answering(http.StatusOK, body), "98765")
		rlCheckError(t, err, body)
		var direct padapi.PadEnvironment
		directErr := padapi.UnmarshalForTest(body, &direct)
		var status struct {
			Status string `json:"status"`
		}
		_ = padapi.UnmarshalForTest(body, &status)
		switch {
		case err == nil:
			rlAgree(t, body, got, &direct, directErr)
		case directErr == nil && status.Status == "OK" && direct.ID != "":
			t.Fatalf("json.Unmarshal decodes %q, the pipeline fails: %v", body, err)
		}
		if directErr == nil {
			rlRoundTrip(t, body, &direct, new(padapi.PadEnvironment))
		}
	})
}

// ltEventsPage is an events page in its wire shape, decoded with
// encoding/json alone.
type ltEventsPage struct {
	Status   string            `json:"status"`
	Events   []padapi.PadEvent `json:"events"`
	Total    int               `json:"total"`
	NextPage string            `json:"next_page"`
	PrevPage string            `json:"prev_page"`
}

// FuzzEventsPage sends any body as the answer to Pads.ListEvents: no
// panic, bounded errors, and a page that decodes holds what encoding/json
// finds under "events".
func FuzzEventsPage(f *testing.F) {
	rlAddFiles(f, "events_*.json")
	f.Add([]byte(`{"status":"OK","events":[null,{"KIND":"ran","metadata":null}],"total":"1"}`))
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := c.Pads.ListEvents(answering(http.StatusOK, body), "P1", nil)
		rlCheckError(t, err, body)
		if err != nil {
			return
		}
		var direct ltEventsPage
		rlDecodesOK(t, body, &direct, &direct.Status)
		items := direct.Events
		if items == nil {
			items = []padapi.PadEvent{}
		}
		want := &padapi.Page[padapi.PadEvent]{Items: items, Total: direct.Total, NextPage: direct.NextPage, PrevPage: direct.PrevPage}
		rlAgree(t, body, page, want, nil)
	})
}

// FuzzUsersPage sends any body as the answer to Organization.ListUsers: no
// panic, bounded errors, and the users encoding/json finds.
func FuzzUsersPage(f *testing.F) {
	rlAddFiles(f, "users_*.json")
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		users, err := c.Organization.ListUsers(answering(http.StatusOK, body), &padapi.OrganizationUserListOptions{Email: "a@example.com"})
		rlCheckError(t, err, body)
		if err != nil {
			if strings.Contains(err.Error(), "a@example.com") {
				t.Fatalf("error quotes the query: %q", err)
			}
			return
		}
		var direct struct {
			Status string                    `json:"status"`
			Users  []padapi.OrganizationUser `json:"users"`
		}
		rlDecodesOK(t, body, &direct, &direct.Status)
		rlAgree(t, body, users, direct.Users, nil)
	})
}
