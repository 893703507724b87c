package qsync

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
)

// OriginError is a plan refused because the library was synced with
// another service, or another organization, than the one the Syncer
// talks to: the same id names another question there, so a plan would
// overwrite it. Nothing was sent that changes anything, and nothing was
// written. Options.Force plans anyway.
type OriginError struct {
	// Dir is the library.
	Dir string
	// Recorded is the origin the library records; Current is the
	// service's.
	Recorded, Current qfolder.Origin
}

// Error names both origins, one problem a line.
func (e *OriginError) Error() string { return strings.Join(e.Lines(), "\n") }

// Lines returns the problems, one a line.
func (e *OriginError) Lines() []string {
	var lines []string
	r, c := e.Recorded, e.Current
	if r.BaseURL != "" && c.BaseURL != "" && r.BaseURL != c.BaseURL {
		lines = append(lines, fmt.Sprintf("%s was pulled from or applied to the service at %s; this service is %s", e.Dir, r.BaseURL, c.BaseURL))
	}
	if r.Organization != "" && c.Organization != "" && r.Organization != c.Organization {
		lines = append(lines, fmt.Sprintf("%s holds the questions of organization %q; this key's questions are organization %q's", e.Dir, r.Organization, c.Organization))
	}
	lines = append(lines, "a question id names another question there, so nothing was sent or written",
		"--force plans against this service anyway (apply and pull then record it as the folder's origin)")
	return lines
}

// normalizeBaseURL returns a base URL as compared: scheme and host lower
// case, no trailing slash.
func normalizeBaseURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return strings.TrimRight(strings.TrimSpace(raw), "/")
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return strings.TrimRight(u.String(), "/")
}

// origin returns the service's origin as far as it is known: the base URL
// the Syncer was given, and org (the organization its questions name,
// "" when none did), redacted as the library's files are.
func (s *Syncer) origin(org string) qfolder.Origin {
	o := qfolder.Origin{BaseURL: normalizeBaseURL(s.o.BaseURL), Organization: org}
	if s.o.Redact != nil {
		o.Organization = s.o.Redact(o.Organization)
	}
	return o
}

// checkOrigin refuses to plan against cur when the library records
// another origin, unless Options.Force is set. A library that records
// none, or a part of one (an old library, or one whose service named no
// organization), is checked on what both sides know.
func (s *Syncer) checkOrigin(lib *qfolder.Library, cur qfolder.Origin) error {
	rec := lib.State.Origin
	if rec == nil || s.o.Force {
		return nil
	}
	if (rec.BaseURL != "" && cur.BaseURL != "" && rec.BaseURL != cur.BaseURL) ||
		(rec.Organization != "" && cur.Organization != "" && rec.Organization != cur.Organization) {
		return &OriginError{Dir: s.dir, Recorded: *rec, Current: cur}
	}
	return nil
}

// mergeOrigin returns what a library records after a sync with cur: cur,
// with what it does not know kept from rec (nil for none).
func mergeOrigin(rec *qfolder.Origin, cur qfolder.Origin) *qfolder.Origin {
	out := cur
	if rec != nil {
		if out.BaseURL == "" {
			out.BaseURL = rec.BaseURL
		}
		if out.Organization == "" {
			out.Organization = rec.Organization
		}
	}
	if out == (qfolder.Origin{}) {
		return rec
	}
	return &out
}
