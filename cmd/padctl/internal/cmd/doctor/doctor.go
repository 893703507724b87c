// Package doctor is padctl doctor: checks of the configuration, the
// network, the key and the clock, and of the service's shapes.
package doctor

import (
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/internal/app/reference"
	"github.com/padinterview/padapi/internal/lib/shapes"
	"github.com/spf13/cobra"
)

// check is the outcome of one of doctor's checks. Its detail and hint
// never hold the API key nor any value from an answer.
type check struct {
	Name   string   `json:"name"`
	Status string   `json:"status"` // ok, warn, fail or skip
	Detail string   `json:"detail,omitempty"`
	Millis *float64 `json:"ms,omitempty"`
	Hint   string   `json:"hint,omitempty"`
}

// difference is one place where the service's answer to a call has
// another shape than padapitest's: a field path and JSON kinds, no value.
type difference struct {
	Call string `json:"call"`
	shapes.Diff
}

// line is how a difference prints: one line, safe to paste.
func (d difference) line() string {
	path := d.Path
	if path == "" {
		path = "(body)"
	}
	return fmt.Sprintf("%s  %s  live: %s  fake: %s", d.Call, path, d.Live, d.Fake)
}

// MaxDiffLines bounds the differences doctor prints: past it, it counts
// them, and says how many it left out.
const MaxDiffLines = 1000

// doctor is one run of padctl doctor.
type doctor struct {
	f      *cmdutil.Factory
	fake   bool // checking the in-process fake of --fake
	checks []check
	diffs  []difference // at most MaxDiffLines
	// omitted counts the differences past MaxDiffLines.
	omitted int
}

// addDiff keeps a difference to print, or counts it past MaxDiffLines.
func (d *doctor) addDiff(diff difference) {
	if len(d.diffs) >= MaxDiffLines {
		d.omitted++
		return
	}
	d.diffs = append(d.diffs, diff)
}

func (d *doctor) add(c check) {
	d.checks = append(d.checks, c)
	if d.f.Flags.JSON {
		return
	}
	msg := fmt.Sprintf("%-4s %-9s %s", c.Status, c.Name, c.Detail)
	if c.Millis != nil {
		msg += fmt.Sprintf(" (%.0f ms)", *c.Millis)
	}
	cmdutil.Note(d.f.IOStreams, "%s", strings.TrimRight(msg, " "))
	if c.Hint != "" {
		cmdutil.Note(d.f.IOStreams, "     %s", c.Hint)
	}
}

func since(t time.Time) *float64 {
	ms := float64(time.Since(t).Microseconds()) / 1000
	return &ms
}

// DoctorOptions are what doctor runs with. Doctor makes its own client:
// it checks the configuration before asking the Factory for one.
type DoctorOptions struct {
	Factory *cmdutil.Factory
	Ctx     context.Context
	Shapes  bool
}

// NewCmdDoctor returns doctor. runF, when not nil, runs instead of
// doctorRun.
func NewCmdDoctor(f *cmdutil.Factory, runF func(*DoctorOptions) error) *cobra.Command {
	o := &DoctorOptions{Factory: f}
	cmd := &cobra.Command{
		Use: "doctor",
		Example: `  padctl doctor
  padctl doctor --shapes                    # paste its output into a bug report
  padctl doctor --json`,
		Short: "Check the configuration, the connection, the key and the clock; --shapes compares the answers' shapes with padapitest's",
		Long: `Check what padctl needs: the base URL and the API key (their form), the
connection to the service (DNS, connect, TLS, each timed, with a hint when
one fails), the key (GET /api/quota) and the clock (against the service's
Date header). Then what the service has of the API as it stands in
2026-10: whose key this is (GET /api/user, its fields' kinds checked) and
question variants (the first question's); a 404 there says "not on this
service", which is not a failure. The checks go to stderr, --json prints
them on stdout.

--shapes also makes read-only GETs (the quota; one page of pads, one pad,
one page of its events, one of its environments; the organization, its
stats and users; one page of questions, one question) and compares the
shape of each answer (field paths, JSON kinds, null or string, present or
absent) with what padapitest sends for the same call. Each difference
prints as one line on stdout:

  GET /api/pads/:id  team.id  live: string  fake: number

Field names and kinds only, never a value: paste the lines into a bug
report. doctor only reads, and never prints the key.

Exit status: 0 when every check passed and no shape differs, 1 otherwise.
A warning (plain http, a key of an odd form, a clock off) does not change
it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Ctx = cmd.Context()
			if runF != nil {
				return runF(o)
			}
			return doctorRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.Shapes, "shapes", false, "compare the shapes of read-only answers with padapitest's")
	return cmd
}

// doctorRun runs the checks and prints what they found.
func doctorRun(o *DoctorOptions) error {
	f := o.Factory
	d := &doctor{f: f}
	failed, err := d.run(o.Ctx, o.Shapes)
	if err != nil {
		return err
	}
	if f.Flags.JSON {
		if err := cmdutil.PrintJSON(f.IOStreams, struct {
			Checks      []check      `json:"checks"`
			Differences []difference `json:"differences"`
			Omitted     int          `json:"omitted"`
		}{d.checks, append([]difference{}, d.diffs...), d.omitted}); err != nil {
			return err
		}
	} else {
		for _, diff := range d.diffs {
			fmt.Fprintln(f.IOStreams.Out, diff.line())
		}
		if d.omitted > 0 {
			fmt.Fprintf(f.IOStreams.Out, "... and %d more differences, left out (doctor prints at most %d)\n", d.omitted, MaxDiffLines)
		}
	}
	switch {
	case len(d.diffs) > 0:
		return errors.New("doctor: a shape differs")
	case failed:
		return errors.New("doctor: a check failed")
	}
	return nil
}

// run runs the checks, and with withShapes the comparison. failed is set
// when a check failed; err is a usage error (a configuration the client
// refuses).
func (d *doctor) run(ctx context.Context, withShapes bool) (failed bool, err error) {
	f := d.f
	if f.Flags.Fake {
		baseURL, apiKey, stop := cmdutil.StartFake()
		defer stop()
		f.Flags.Fake, f.Flags.BaseURL, d.fake = false, baseURL, true
		_ = f.Flags.APIKey.Set(apiKey)
	}
	if f.TimeoutErr != nil {
		return false, f.TimeoutErr // the command's deadline is in ctx (StartClock)
	}
	base := cmp.Or(f.Flags.BaseURL, f.Getenv("PAD_BASE_URL"), padapi.DefaultBaseURL)
	key := cmp.Or(f.Flags.APIKey.Get(), f.Getenv("PAD_API_KEY"))

	u, ok := d.checkConfig(base, key)
	if !ok {
		return true, nil
	}
	tap := &dateTap{next: f.Transport}
	if tap.next == nil {
		tap.next = http.DefaultTransport.(*http.Transport).Clone()
	}
	f.Transport = tap
	c, err := f.Client()
	if err != nil {
		return false, err
	}
	if !d.checkNetwork(ctx, u) {
		return true, nil
	}
	if !d.checkAuth(ctx, c, tap) {
		return true, nil
	}
	failed = d.checkUser(ctx, c)
	d.checkVariants(ctx, c)
	if withShapes {
		failed = d.compareShapes(ctx, c) || failed
	}
	return failed, nil
}

// checkConfig checks the form of the base URL and the key. ok is false
// when nothing else can be checked.
func (d *doctor) checkConfig(base, key string) (*url.URL, bool) {
	u, err := url.Parse(base)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		d.add(check{Name: "base URL", Status: "fail", Detail: "not an http or https URL with a host",
			Hint: "set PAD_BASE_URL or --base-url to the service's address, such as " + padapi.DefaultBaseURL})
		return nil, false
	case u.User != nil || u.RawQuery != "" || u.Fragment != "":
		d.add(check{Name: "base URL", Status: "warn", Detail: u.Scheme + "://" + u.Host + ", with a user, query or fragment",
			Hint: "the base URL should be the service's address alone"})
	case strings.Trim(u.Path, "/") != "":
		d.add(check{Name: "base URL", Status: "warn", Detail: u.Scheme + "://" + u.Host + ", with a path",
			Hint: "every request goes below that path (/api/... is added): the base URL is usually the host alone"})
	default:
		d.add(check{Name: "base URL", Status: "ok", Detail: u.Scheme + "://" + u.Host})
	}
	d.checkHTTPS(u)
	return u, d.checkKey(key)
}

// checkHTTPS says whether the key travels encrypted.
func (d *doctor) checkHTTPS(u *url.URL) {
	switch {
	case d.fake:
		d.add(check{Name: "https", Status: "skip", Detail: "plain http to the in-process fake (--fake)"})
	case u.Scheme == "http":
		d.add(check{Name: "https", Status: "warn", Detail: "plain http",
			Hint: "the API key travels in clear text: use https unless this is a local fake"})
	default:
		d.add(check{Name: "https", Status: "ok"})
	}
}

// checkKey looks at the key's form (never printing it); false when there
// is none.
func (d *doctor) checkKey(key string) bool {
	switch {
	case key == "":
		d.add(check{Name: "API key", Status: "fail", Detail: "not set", Hint: "set PAD_API_KEY (or --api-key)"})
		return false
	case d.fake:
		d.add(check{Name: "API key", Status: "ok", Detail: "the in-process fake's"})
	case strings.TrimSpace(key) != key, strings.ContainsAny(key, "\"' "):
		d.add(check{Name: "API key", Status: "warn", Detail: "set, with spaces or quotes", Hint: "copy the key alone, without quotes or spaces"})
	case strings.HasPrefix(strings.ToLower(key), "token"):
		d.add(check{Name: "API key", Status: "warn", Detail: "set, starting with \"Token\"", Hint: "give the key alone: padctl adds the Token header itself"})
	case len(key) < 16:
		d.add(check{Name: "API key", Status: "warn", Detail: "set, shorter than keys usually are", Hint: "check that the whole key was copied"})
	default:
		d.add(check{Name: "API key", Status: "ok", Detail: "set"})
	}
	return true
}

// checkNetwork resolves, connects to and (for https) shakes hands with
// the base URL's host, timing each step.
func (d *doctor) checkNetwork(ctx context.Context, u *url.URL) bool {
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	proxyHint := ""
	if p, _ := http.ProxyFromEnvironment(&http.Request{URL: u}); p != nil {
		proxyHint = " A proxy is set (HTTPS_PROXY or HTTP_PROXY): the client goes through it, this check does not."
	}
	addrs := []string{host}
	if net.ParseIP(host) == nil {
		start := time.Now()
		found, err := net.DefaultResolver.LookupHost(ctx, host)
		if err != nil {
			d.add(check{Name: "DNS", Status: "fail", Detail: "cannot resolve " + host, Millis: since(start),
				Hint: "check the host name in PAD_BASE_URL or --base-url, then your network or DNS." + proxyHint})
			return false
		}
		d.add(check{Name: "DNS", Status: "ok", Detail: fmt.Sprintf("%s: %d addresses", host, len(found)), Millis: since(start)})
		addrs = found
	} else {
		d.add(check{Name: "DNS", Status: "skip", Detail: "the host is an IP address"})
	}
	start := time.Now()
	var conn net.Conn
	var err error
	var dialer net.Dialer
	for _, a := range addrs {
		if conn, err = dialer.DialContext(ctx, "tcp", net.JoinHostPort(a, port)); err == nil {
			break
		}
	}
	if err != nil {
		hint := "check the port in the base URL, a firewall, or whether the service is up."
		if errors.Is(err, context.DeadlineExceeded) {
			hint = "no answer in time: a firewall may drop the connection; --timeout sets the limit."
		}
		d.add(check{Name: "connect", Status: "fail", Detail: "cannot connect to " + net.JoinHostPort(host, port), Millis: since(start), Hint: hint + proxyHint})
		return false
	}
	defer conn.Close()
	d.add(check{Name: "connect", Status: "ok", Detail: net.JoinHostPort(host, port), Millis: since(start)})
	if u.Scheme != "https" {
		return true
	}
	start = time.Now()
	tc := tls.Client(conn, &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12})
	if err := tc.HandshakeContext(ctx); err != nil {
		// The reason, as padctl quota gives it: x509's words say which of
		// the hint's causes it is.
		d.add(check{Name: "TLS", Status: "fail", Detail: "handshake failed: " + err.Error(), Millis: since(start),
			Hint: "the certificate is not valid for this host, a proxy intercepts TLS, or the clock is wrong; check the base URL." + proxyHint})
		return false
	}
	d.add(check{Name: "TLS", Status: "ok", Detail: tls.VersionName(tc.ConnectionState().Version), Millis: since(start)})
	return true
}

// checkAuth sends the key (GET /api/quota) and compares the clock with the
// answer's Date header.
func (d *doctor) checkAuth(ctx context.Context, c *padapi.Client, tap *dateTap) bool {
	start := time.Now()
	_, err := c.Quota.Get(ctx)
	var ae *padapi.APIError
	switch {
	case errors.Is(err, padapi.ErrUnauthorized):
		d.add(check{Name: "auth", Status: "fail", Detail: "the service rejected the key (401)", Millis: since(start),
			Hint: "check PAD_API_KEY or --api-key: the key may be wrong, revoked, or for another service"})
		return false
	case errors.As(err, &ae):
		d.add(check{Name: "auth", Status: "fail", Detail: fmt.Sprintf("GET /api/quota answered %d", ae.StatusCode), Millis: since(start),
			Hint: "the base URL may not be the Pad Interview Service's"})
		return false
	case err != nil:
		d.add(check{Name: "auth", Status: "fail", Detail: "GET /api/quota failed", Millis: since(start), Hint: cmdutil.NetworkHint(err)})
		return false
	}
	d.add(check{Name: "auth", Status: "ok", Detail: "GET /api/quota", Millis: since(start)})
	date, at := tap.last()
	switch skew := at.Sub(date); {
	case date.IsZero():
		d.add(check{Name: "clock", Status: "skip", Detail: "the answer had no Date header"})
	case skew > time.Minute || skew < -time.Minute:
		d.add(check{Name: "clock", Status: "warn", Detail: fmt.Sprintf("%s off the service's", skew.Round(time.Second)),
			Hint: "set the clock right (NTP): times and windows you give are read against the service's clock"})
	default:
		d.add(check{Name: "clock", Status: "ok", Detail: "within a minute of the service's"})
	}
	return true
}

// userFields are the members of GET /api/user's answer and the JSON kinds
// each may have (docs/api-notes.md, the routes added in v5).
var userFields = []struct{ name, kinds string }{
	{"name", "string|null"}, {"allow_pad_creation", "boolean"}, {"analytics_id", "string"},
}

// checkUser asks whose key this is (GET /api/user, added in v5) and checks
// the answer's shape: field names and kinds only, never a value. A 404 is
// a service without the route, not a failure. It reports a failure.
func (d *doctor) checkUser(ctx context.Context, c *padapi.Client) bool {
	start := time.Now()
	var resp padapi.Response
	_, err := c.User.Get(padapi.WithResponse(ctx, &resp))
	if errors.Is(err, padapi.ErrNotFound) {
		d.add(check{Name: "user", Status: "skip", Detail: "GET /api/user: not on this service (404)", Millis: since(start)})
		return false
	}
	// An answer the library could not read (a 2xx) still has a shape to
	// show; any other error has none.
	var ae *padapi.APIError
	var m map[string]json.RawMessage
	if (err != nil && !(errors.As(err, &ae) && ae.StatusCode/100 == 2)) || json.Unmarshal(resp.Body, &m) != nil {
		d.add(check{Name: "user", Status: "fail", Detail: "GET /api/user: " + answered(err), Millis: since(start), Hint: cmdutil.NetworkHint(err)})
		return true
	}
	var bad []string
	for _, f := range userFields {
		if kind := jsonKind(m[f.name]); !slices.Contains(strings.Split(f.kinds, "|"), kind) {
			bad = append(bad, fmt.Sprintf("%s is %s, want %s", f.name, kind, f.kinds))
		}
	}
	if len(bad) == 0 && err != nil {
		bad = append(bad, answered(err))
	}
	if len(bad) > 0 {
		d.add(check{Name: "user", Status: "fail", Detail: "GET /api/user: " + strings.Join(bad, "; "), Millis: since(start),
			Hint: "the service's answer differs from what padapi reads: paste this line into a bug report"})
		return true
	}
	d.add(check{Name: "user", Status: "ok", Detail: "GET /api/user: name, allow_pad_creation, analytics_id", Millis: since(start)})
	return false
}

// checkVariants says whether the service has question variants (added in
// v5): it lists the variants of the first question. A 404 there is a
// service without them, not a failure; any other error is a warning, as
// doctor's verdict is about the key and the connection.
func (d *doctor) checkVariants(ctx context.Context, c *padapi.Client) {
	start := time.Now()
	page, err := c.Questions.List(ctx, nil)
	switch {
	case err != nil:
		d.add(check{Name: "variants", Status: "skip", Detail: "GET /api/questions " + answered(err) + ": no question to ask for its variants", Millis: since(start)})
		return
	case len(page.Items) == 0:
		d.add(check{Name: "variants", Status: "skip", Detail: "no question to ask for its variants", Millis: since(start)})
		return
	}
	_, err = c.Questions.ListVariants(ctx, page.Items[0].ID)
	switch {
	case errors.Is(err, padapi.ErrNotFound):
		d.add(check{Name: "variants", Status: "skip", Detail: "question variants: not on this service (404)", Millis: since(start)})
	case err != nil:
		d.add(check{Name: "variants", Status: "warn", Detail: "GET /api/questions/:id/variants " + answered(err), Millis: since(start),
			Hint: "the service may not have question variants: padctl questions variants may not work"})
	default:
		d.add(check{Name: "variants", Status: "ok", Detail: "question variants: on this service", Millis: since(start)})
	}
}

// answered says how a call ended, without a value from the answer.
func answered(err error) string {
	var ae *padapi.APIError
	switch {
	case errors.As(err, &ae):
		return fmt.Sprintf("answered %d", ae.StatusCode)
	case err != nil:
		return "failed"
	}
	return "answered something that is not a JSON object"
}

// jsonKind is the kind of a JSON value, as the shapes name them; "absent"
// for none.
func jsonKind(v json.RawMessage) string {
	if len(v) == 0 {
		return "absent"
	}
	switch v[0] {
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "number"
}

// compareShapes makes the read-only calls and compares each answer's shape
// with the reference. It reports whether a call failed.
func (d *doctor) compareShapes(ctx context.Context, c *padapi.Client) bool {
	ref, err := reference.Shapes()
	if err != nil {
		d.add(check{Name: "shapes", Status: "fail", Detail: "padapitest's reference: " + cmdutil.Message(err)})
		return true
	}
	var known reference.IDs
	failed := false
	for _, call := range reference.Calls() {
		path := call.Path(known)
		if path == "" {
			d.add(check{Name: "shapes", Status: "skip", Detail: call.Label + ": no ID to ask for (an empty list before it)"})
			continue
		}
		var body json.RawMessage
		if err := c.Do(ctx, "GET", path, nil, &body); err != nil {
			detail, hint := call.Label+": failed", cmdutil.NetworkHint(err)
			var ae *padapi.APIError
			if errors.As(err, &ae) {
				detail = fmt.Sprintf("%s: answered %d", call.Label, ae.StatusCode)
				if ae.StatusCode == http.StatusForbidden {
					hint = "organization endpoints need an organization owner's key"
				}
			}
			d.add(check{Name: "shapes", Status: "fail", Detail: detail, Hint: hint})
			failed = true
			continue
		}
		reference.Learn(call.Label, body, &known)
		if !d.compareCall(call, body, ref[call.Label]) {
			failed = true
		}
	}
	status := "ok"
	if len(d.diffs) > 0 {
		status = "fail"
	}
	d.add(check{Name: "shapes", Status: status, Detail: fmt.Sprintf("%d differences", len(d.diffs)+d.omitted)})
	return failed
}

// compareCall compares the shape of one answer with the reference's, and
// reports whether the answer could be read. An answer of more field paths
// than shapes.MaxPaths is compared on those recorded, with a warning.
func (d *doctor) compareCall(call reference.Call, body []byte, ref shapes.Shape) bool {
	live, err := call.Shape(body)
	var many *shapes.TooManyPathsError
	switch {
	case errors.As(err, &many):
		d.add(check{Name: "shapes", Status: "warn",
			Detail: fmt.Sprintf("%s: more than %d field paths: %d values past them not compared", call.Label, many.Max, many.Left)})
	case err != nil:
		d.add(check{Name: "shapes", Status: "fail", Detail: call.Label + ": the answer is not JSON"})
		return false
	}
	for _, diff := range shapes.Compare(live, ref) {
		d.addDiff(difference{call.Label, diff})
	}
	return true
}

// dateTap is a transport that keeps the Date header of the last answer,
// and when it came.
type dateTap struct {
	next http.RoundTripper
	mu   sync.Mutex
	date time.Time
	at   time.Time
}

// RoundTrip sends r on, keeping the answer's Date.
func (t *dateTap) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err == nil {
		if d, perr := http.ParseTime(resp.Header.Get("Date")); perr == nil {
			t.mu.Lock()
			t.date, t.at = d, time.Now()
			t.mu.Unlock()
		}
	}
	return resp, err
}

func (t *dateTap) last() (date, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.date, t.at
}
