// history.go: get_pad_history, a file's text at a moment, and where it may fetch a history from.

package padmcp

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/cliarg"
)

type padHistoryArgs struct {
	ID            string `json:"id" jsonschema:"the pad's ID, such as DM32JWG2 (from list_pads)"`
	EnvironmentID string `json:"environment_id,omitempty" jsonschema:"one of the pad's environment IDs (get_pad_code lists them); default the active one"`
	Path          string `json:"path,omitempty" jsonschema:"the file's path in the environment, such as main.py; default its first file"`
	At            string `json:"at,omitempty" jsonschema:"RFC 3339 time, such as 2026-01-02T15:04:05Z, or a date such as 2026-01-02: the text as it was then; default the end of the interview"`
	Offset        int    `json:"offset,omitempty" jsonschema:"byte offset into the text as shown to start from, to read on where a truncated answer stopped"`
}

// getPadHistory is get_pad_history: a file's text at a moment.
func getPadHistory(ts *toolset) serverTool {
	return newTool(ts, spec[padHistoryArgs]{kind: read, tool: &mcp.Tool{Name: "get_pad_history", Title: "Get a file's text at a moment",
		Description: "A file's text as it was at a moment of the interview (or at the end), rebuilt from its edit history. " +
			"Default: the active environment's first file, at the end. offset reads on where a cut answer stopped."},
		schema: func(s *jsonschema.Schema) { s.Properties["offset"].Minimum = padapi.Ptr(0.0) }},
		ts.padHistory)
}

// timeArg reads a time argument as padctl's flags do; "" is the zero time.
func timeArg(name, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := cliarg.Time(v)
	if err != nil {
		return time.Time{}, argError(name, "%q: %v", v, err)
	}
	return t, nil
}

// historyFile finds the file get_pad_history reads: the environment's
// (default the active one), and the file at path (default the first).
func (ts *toolset) historyFile(ctx context.Context, a padHistoryArgs) (*padapi.Pad, *padapi.PadEnvironment, *padapi.FileContent, error) {
	p, err := ts.client(ctx).Pads.Get(ctx, padapi.ID(a.ID))
	if err != nil {
		return nil, nil, nil, err
	}
	ids, err := p.EnvironmentIDs()
	if err != nil {
		return nil, nil, nil, err
	}
	envID := padapi.ID(a.EnvironmentID)
	switch {
	case envID == "" && p.ActiveEnvironmentID != nil && *p.ActiveEnvironmentID != "":
		envID = *p.ActiveEnvironmentID
	case envID == "" && len(ids) > 0:
		envID = ids[0]
	case envID == "":
		return nil, nil, nil, fmt.Errorf("pad %s has no environments, so no files", a.ID)
	case !slices.Contains(ids, envID):
		return nil, nil, nil, argError("environment_id", "%s is not one of pad %s's environments %v", envID, a.ID, ids)
	}
	env, err := ts.client(ctx).Pads.Environment(ctx, envID)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(env.Files) == 0 {
		return nil, nil, nil, fmt.Errorf("environment %s of pad %s has no files", envID, a.ID)
	}
	file := &env.Files[0]
	if a.Path != "" {
		i := slices.IndexFunc(env.Files, func(f padapi.FileContent) bool { return f.Path == a.Path })
		if i < 0 {
			return nil, nil, nil, argError("path", "environment %s has no file %q; its files: %q", envID, a.Path, filePaths(env))
		}
		file = &env.Files[i]
	}
	if file.Binary {
		return nil, nil, nil, argError("path", "%q is a binary file, which has no text to show", file.Path)
	}
	return p, env, file, nil
}

// filePaths are an environment's files' paths.
func filePaths(env *padapi.PadEnvironment) []string {
	paths := make([]string, len(env.Files))
	for i, f := range env.Files {
		paths[i] = f.Path
	}
	return paths
}

// padHistory is get_pad_history's handler.
func (ts *toolset) padHistory(ctx context.Context, a padHistoryArgs) (*historyResult, error) {
	at, err := timeArg("at", a.At)
	if err != nil {
		return nil, err
	}
	p, env, file, err := ts.historyFile(ctx, a)
	if err != nil {
		return nil, err
	}
	out := &historyResult{PadID: string(p.ID), EnvironmentID: string(env.ID), Path: ts.clip(file.Path, rowBytes, "cut"), Files: filePaths(env)}
	text := file.Contents
	switch {
	case file.History == "" && a.At != "":
		return nil, fmt.Errorf("%s has no edit history, so no text at %s; without at, get_pad_history gives its final text", file.Path, a.At)
	case file.History == "":
		out.Source = "final contents (no edit history)"
	default:
		if text, err = ts.replay(ctx, file.History, a.At != "", at, out); err != nil {
			return nil, err
		}
	}
	ts.showText(out, text, a.Offset)
	return out, nil
}

// replay fetches a history document and replays it to the end, or until at
// when until is set, stopping when ctx ends; it records what it read in out.
func (ts *toolset) replay(ctx context.Context, link string, until bool, at time.Time, out *historyResult) (string, error) {
	if err := ts.historyLinkAllowed(ctx, link); err != nil {
		return "", err
	}
	hc, err := ts.historyClient(ctx)
	if err != nil {
		return "", err
	}
	h, err := hc.Pads.History(ctx, link)
	if err != nil {
		return "", err
	}
	var text string
	if until {
		text, err = h.ReplayUntilContext(ctx, at)
		out.At = &at
	} else {
		text, err = h.ReplayContext(ctx)
	}
	if err != nil {
		return "", err
	}
	out.Source = "edit history"
	out.Edits = len(h.Entries)
	if n := len(h.Entries); n > 0 {
		first, last := h.Entries[0].Time, h.Entries[n-1].Time
		out.FirstEdit, out.LastEdit = &first, &last
	}
	return text, nil
}

// showText puts the text from offset on into out, cut to fit a result. The
// secrets are redacted from the whole text first, so offsets count the
// text as shown and no cut leaves part of a secret.
func (ts *toolset) showText(out *historyResult, text string, offset int) {
	text = ts.redact(text)
	offset = min(max(offset, 0), len(text))
	for offset > 0 && offset < len(text) && !utf8.RuneStart(text[offset]) {
		offset--
	}
	out.Bytes = len(text)
	out.Offset = offset
	rest := text[offset:]
	shown := ts.clip(rest, ts.opts.MaxResultBytes-reserve, "")
	if len(shown) != len(rest) {
		cut := len(unclip(shown))
		shown = unclip(shown) + fmt.Sprintf("\n[truncated: bytes %d to %d of %d shown; call get_pad_history with the same arguments and offset: %d for the rest]",
			offset, offset+cut, len(text), offset+cut)
	}
	out.Text = shown
}

// unclip is the text of a clip without its marker.
func unclip(s string) string {
	if i := strings.LastIndex(s, "\n[truncated: "); i >= 0 {
		return s[:i]
	}
	return s
}

// historyLinkAllowed refuses, before any request, a history link a read
// tool must not follow: one that is not https, or that names a loopback
// host, or a literal address that is not public. A name is not resolved
// here: the address the connection dials is checked as it dials
// (historyClient), so a name that resolves to a public address now and a
// loopback one a moment later (DNS rebinding) reaches nothing.
// Options.AllowLoopbackHistory lifts this for a local fake.
func (ts *toolset) historyLinkAllowed(_ context.Context, link string) error {
	if ts.opts.AllowLoopbackHistory {
		return nil
	}
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("the pad's history link is not an https URL, so it is not fetched (an embedder serving a local fake sets Options.AllowLoopbackHistory)")
	}
	host := u.Hostname()
	if h := strings.ToLower(strings.TrimSuffix(host, ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return fmt.Errorf("the pad's history link names host %q, a loopback host, so it is not fetched (Options.AllowLoopbackHistory allows it)", host)
	}
	if a, err := netip.ParseAddr(host); err == nil && !publicAddr(a.Unmap()) {
		return fmt.Errorf("the pad's history link names host %q, which is not a public address, so it is not fetched (Options.AllowLoopbackHistory allows it)", host)
	}
	return nil
}

// dialPublic is the history client's check of each address it dials
// (host:port, after name resolution): public addresses only.
func dialPublic(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("the history link's host is at %q, not an address padmcp can check, so it is not fetched", address)
	}
	if a := ap.Addr().Unmap(); !publicAddr(a) {
		return fmt.Errorf("the history link's host is at %s, which is not a public address, so it is not fetched (Options.AllowLoopbackHistory allows it)", a)
	}
	return nil
}

// historyClient is the client that fetches history documents: the tools'
// own client with Options.AllowLoopbackHistory; otherwise one whose every
// connection is checked by dialPublic as it is dialled (a net.Dialer's
// Control hook), made on first use. A history request carries no API key,
// so this client has none of the caller's.
func (ts *toolset) historyClient(ctx context.Context) (*padapi.Client, error) {
	if ts.opts.AllowLoopbackHistory {
		return ts.client(ctx), nil
	}
	ts.historyOnce.Do(func() { ts.history, ts.historyErr = newHistoryClient(nil, nil, dialPublic) })
	return ts.history, ts.historyErr
}

// historyKey stands for the key in the history client: history links are
// fetched without one.
const historyKey = "padmcp-history-links-carry-no-key"

// newHistoryClient returns a client whose connections go only where check
// allows, the address checked as dialled; res resolves names and roots
// verifies certificates (nil: the system's).
func newHistoryClient(res *net.Resolver, roots *tls.Config, check func(address string) error) (*padapi.Client, error) {
	d := &net.Dialer{Timeout: 30 * time.Second, Resolver: res,
		Control: func(_, address string, _ syscall.RawConn) error { return check(address) }}
	tr := &http.Transport{DialContext: d.DialContext, TLSClientConfig: roots, ForceAttemptHTTP2: true, TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConns: 8, IdleConnTimeout: 90 * time.Second} // no Proxy: the dial is the check
	// No retries: an address refused once is refused again.
	return padapi.NewClient(padapi.DefaultBaseURL, historyKey, padapi.WithHTTPClient(&http.Client{Transport: tr}), padapi.WithRetry(0, 0, 0))
}

// publicAddr reports whether a is an address a history document may come
// from: not loopback, private, link-local, multicast or unspecified.
func publicAddr(a netip.Addr) bool {
	return a.IsValid() && !a.IsLoopback() && !a.IsPrivate() && !a.IsLinkLocalUnicast() && !a.IsLinkLocalMulticast() &&
		!a.IsInterfaceLocalMulticast() && !a.IsMulticast() && !a.IsUnspecified()
}
