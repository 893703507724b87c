// environments.go: pad environments, their files and the edit history of each.

package padapitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/padinterview/padapi"
)

// envState is an environment with the edit history of each of its files.
type envState struct {
	env   padapi.PadEnvironment
	edits []padapi.History // by index in env.Files; empty for a binary file
}

// newEnvironment stores env as an environment of ps (which the caller
// lists in the pad), with a history for each text file whose replay gives
// its contents. env must have its ID, language and times. It gets a text
// file when it has none, since the pad's contents live in one.
func (s *Server) newEnvironment(ps *padState, env padapi.PadEnvironment) *envState {
	env.PadID = ps.pad.ID
	if mainFile(env.Files) < 0 {
		env.Files = append(env.Files, padapi.FileContent{Path: fileName(env.Language)})
	}
	es := &envState{env: env, edits: make([]padapi.History, len(env.Files))}
	author := authorOf(ps)
	for i := range env.Files {
		f := &es.env.Files[i]
		if f.Binary {
			f.Contents = ""
			continue
		}
		if f.History == "" {
			f.History = s.historyLink(env.ID, i)
		}
		if f.Contents != "" {
			s.addEntry(&es.edits[i], author, env.CreatedAt, []padapi.HistoryOp{{Insert: f.Contents}})
		}
	}
	s.envs[env.ID] = es
	return es
}

// historyLink is the link to the edit history of file i of an environment,
// on the history listener, shaped like a realtime database's document
// (https://example.firebaseio.com/.../history.json).
func (s *Server) historyLink(env padapi.ID, i int) string {
	return s.HistoryURL + "/history/" + url.PathEscape(string(env)) + "/" + strconv.Itoa(i) + ".json"
}

// authorOf names who edits a pad's files in its histories.
func authorOf(ps *padState) string {
	if ps.pad.OwnerEmail != "" {
		return ps.pad.OwnerEmail
	}
	return "anonymous"
}

// addEntry appends an entry of ops to h, stamped at (to the millisecond, as
// the editor records it) or at the last entry's time if that is later, so
// that the entries keep their order when sorted by time, then ID.
func (s *Server) addEntry(h *padapi.History, author string, at time.Time, ops []padapi.HistoryOp) {
	at = at.Truncate(time.Millisecond)
	if n := len(h.Entries); n > 0 && at.Before(h.Entries[n-1].Time) {
		at = h.Entries[n-1].Time
	}
	s.next.entry++
	h.Entries = append(h.Entries, padapi.NewHistoryEntry(fmt.Sprintf("-Fk%012d", s.next.entry), author, at, ops...))
}

// diffOps returns the operations that turn from into to: keep the common
// start, delete the part that differs, insert its replacement (the common
// end is kept, as text after the last operation always is). It compares
// whole characters, so it never splits a surrogate pair, and counts in
// UTF-16 code units, as the service's JavaScript editor does.
func diffOps(from, to string) []padapi.HistoryOp {
	a, b := []rune(from), []rune(to)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []padapi.HistoryOp
	if n := utf16Len(a[:pre]); n > 0 {
		ops = append(ops, padapi.HistoryOp{Retain: n})
	}
	if n := utf16Len(a[pre : len(a)-suf]); n > 0 {
		ops = append(ops, padapi.HistoryOp{Delete: n})
	}
	if ins := string(b[pre : len(b)-suf]); ins != "" {
		ops = append(ops, padapi.HistoryOp{Insert: ins})
	}
	return ops
}

func utf16Len(rs []rune) int {
	n := 0
	for _, r := range rs {
		n += utf16.RuneLen(r)
	}
	return n
}

// mainFile is the index of the file that holds a pad's contents: the
// first text file, or -1 when there is none.
func mainFile(files []padapi.FileContent) int {
	return slices.IndexFunc(files, func(f padapi.FileContent) bool { return !f.Binary })
}

// fileNames name the one file of a single-file environment by language.
var fileNames = map[string]string{
	"c": "main.c", "cpp": "main.cpp", "csharp": "Main.cs", "go": "main.go", "java": "Main.java",
	"javascript": "main.js", "kotlin": "Main.kt", "mysql": "main.sql", "php": "main.php",
	"postgresql": "main.sql", "python": "main.py", "python3": "main.py", "ruby": "main.rb",
	"rust": "main.rs", "scala": "Main.scala", "swift": "main.swift", "typescript": "main.ts",
}

func fileName(language string) string {
	if name, ok := fileNames[language]; ok {
		return name
	}
	return "main.txt"
}

// active is the pad's active environment.
func (s *Server) active(ps *padState) *envState {
	if ps.pad.ActiveEnvironmentID == nil {
		return nil
	}
	return s.envs[*ps.pad.ActiveEnvironmentID]
}

// setContents makes text the contents of the main file of es, recording
// the change in its history at now.
func (s *Server) setContents(ps *padState, es *envState, text string, now time.Time) {
	i := mainFile(es.env.Files)
	f := &es.env.Files[i]
	if ops := diffOps(f.Contents, text); len(ops) > 0 {
		s.addEntry(&es.edits[i], authorOf(ps), now, ops)
		es.env.UpdatedAt = now
	}
	f.Contents = text
}

// activate makes es the pad's active environment, listed in the pad, and
// the pad's language and contents its own.
func (s *Server) activate(ps *padState, es *envState) {
	p := &ps.pad
	if !slices.Contains(p.PadEnvironmentIDs, es.env.ID) {
		p.PadEnvironmentIDs = append(p.PadEnvironmentIDs, es.env.ID)
	}
	p.ActiveEnvironmentID = padapi.Ptr(es.env.ID)
	p.Language, p.Contents = es.env.Language, es.env.Files[mainFile(es.env.Files)].Contents
}

// switchLanguage makes the pad's environment of language active (one not
// started from a question), or a new one that starts with the pad's
// contents, as the editor keeps one environment per language.
func (s *Server) switchLanguage(ps *padState, language string, now time.Time) {
	for _, id := range ps.pad.PadEnvironmentIDs {
		if es := s.envs[id]; es != nil && es.env.Language == language && es.env.QuestionID == nil {
			s.activate(ps, es)
			return
		}
	}
	s.activate(ps, s.newEnvironment(ps, padapi.PadEnvironment{
		ID: s.newEnvID(), Language: language, CreatedAt: now, UpdatedAt: now,
		Files: []padapi.FileContent{{Path: fileName(language), Contents: ps.pad.Contents}},
	}))
}

// startQuestion adds an environment with the question's files (or its
// contents as one file) and makes it active; the question counts one use
// more.
func (s *Server) startQuestion(ps *padState, qs *questionState, now time.Time) {
	env := padapi.PadEnvironment{
		ID: s.newEnvID(), QuestionID: padapi.Ptr(qs.q.ID), Language: qs.q.Language,
		CreatedAt: now, UpdatedAt: now, Files: slices.Clone(qs.files),
	}
	if env.Language == "" {
		env.Language = ps.pad.Language
	}
	if env.Files == nil {
		env.Files = []padapi.FileContent{{Path: fileName(env.Language), Contents: qs.q.Contents}}
	}
	s.activate(ps, s.newEnvironment(ps, env))
	if !slices.Contains(ps.pad.QuestionIDs, qs.q.ID) {
		ps.pad.QuestionIDs = append(ps.pad.QuestionIDs, qs.q.ID)
	}
	qs.q.Used++
}

// deletePad removes a pad with its environments (and so their histories)
// and its event log.
func (s *Server) deletePad(ps *padState) {
	for id, es := range s.envs {
		if es.env.PadID == ps.pad.ID {
			delete(s.envs, id)
		}
	}
	s.pads = slices.DeleteFunc(s.pads, func(p *padState) bool { return p == ps })
}

// The handlers below run with s.mu held (see Server.locked).

func (s *Server) getEnvironment(r *http.Request) (any, error) {
	es := s.envs[padapi.ID(r.PathValue("id"))]
	if es == nil {
		return nil, errorf(http.StatusNotFound, "Pad environment not found")
	}
	return s.environmentOut(es), nil
}

func (s *Server) listEvents(r *http.Request) (any, error) {
	ps := s.pad(padapi.ID(r.PathValue("id")))
	if ps == nil {
		return nil, errorf(http.StatusNotFound, "Pad not found")
	}
	return listPage(s, r, "events", ps.events,
		func(e padapi.PadEvent) (time.Time, time.Time) { return e.CreatedAt, e.CreatedAt },
		s.eventOut)
}

// getHistory serves the edit history of file i of an environment, at
// /history/ENV/I.json: the document padapi.History decodes, null when the
// file was never edited.
func (s *Server) getHistory(r *http.Request) (any, error) {
	es := s.envs[padapi.ID(r.PathValue("env"))]
	name, ok := strings.CutSuffix(r.PathValue("file"), ".json")
	i, err := strconv.Atoi(name)
	if es == nil || !ok || err != nil || i < 0 || i >= len(es.env.Files) || es.env.Files[i].Binary {
		return nil, errorf(http.StatusNotFound, "Not found")
	}
	b, err := json.Marshal(es.edits[i])
	return document(b), err
}
