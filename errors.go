// errors.go: APIError, the sentinel errors, and what decoding errors say.

package padapi

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/padinterview/padapi/internal/lib/capread"
	"github.com/padinterview/padapi/internal/lib/jsonerr"
	"github.com/padinterview/padapi/internal/lib/retrypolicy"
)

// Sentinel errors for errors.Is. The HTTP ones match an *APIError by its
// status code, so a caller never has to compare numbers.
var (
	// ErrBadRequest matches a 400: the service rejected the request's
	// parameters (an unsupported language, contents with question_id).
	ErrBadRequest = errors.New("bad request")
	// ErrUnauthorized matches a 401: the API key is wrong or revoked.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrForbidden matches a 403: the key may not see that resource (for
	// example organization endpoints for a user who is not an owner).
	ErrForbidden = errors.New("forbidden")
	// ErrNotFound matches a 404: no such pad, question or endpoint.
	ErrNotFound = errors.New("not found")
	// ErrOverQuota matches a 429 answer to a pad create (Pads.Create): the
	// monthly pad quota is spent, and no pad was created.
	ErrOverQuota = errors.New("over quota")
	// ErrRateLimited matches a 429 answer to any other request, a question
	// create included: the service or a gateway is throttling the caller.
	// APIError.RetryAfter says how long it asked the caller to wait.
	ErrRateLimited = errors.New("rate limited")
	// ErrServer matches any 5xx answer that was still failing after the
	// last retry.
	ErrServer = errors.New("server error")
	// ErrOutcomeUnknown marks a create (POST) that may or may not have
	// happened: the request may have reached the service, but no definite
	// answer came back (a 5xx, a redirect, a timeout, a dropped connection,
	// an answer that could not be read). Creates are never retried in that state, so
	// one Create call never makes two pads; look before you create again.
	ErrOutcomeUnknown = errors.New("outcome unknown")
	// ErrResponseTooLarge marks a response body over the client's cap
	// (WithMaxResponseBytes).
	ErrResponseTooLarge = capread.ErrTooLarge
	// ErrInvalidArgument marks a call the client refused before sending
	// anything: an empty or dot ID, a nil context, params that cannot go
	// together (contents with a question ID), a question create without a
	// title or language, a stats window with one end, a history link that
	// is not https, variant params that cannot go together or a variant
	// create without a language or template, a take-home limit of 0; and
	// NewClient refusing a base URL, key or option.
	ErrInvalidArgument = errors.New("invalid argument")
)

// argError is an argument the client refused before sending anything.
type argError string

// configError is NewClient refusing its arguments: its text is the
// refusal's own, and it matches ErrInvalidArgument.
type configError struct{ err error }

// Error returns the refusal's text.
func (e configError) Error() string { return e.err.Error() }

// Unwrap returns the refusal.
func (e configError) Unwrap() error { return e.err }

// Is matches ErrInvalidArgument.
func (e configError) Is(target error) bool { return target == ErrInvalidArgument }

// Error reads like "padapi: invalid argument: empty ID".
func (e argError) Error() string { return "padapi: invalid argument: " + string(e) }

// Is matches ErrInvalidArgument.
func (e argError) Is(target error) bool { return target == ErrInvalidArgument }

// maxErrorBody caps how much of a failed response is read and kept.
const maxErrorBody = 64 << 10

// maxPageErrorBody is how much of a list page is kept while it streams,
// for the APIError.Body of a page that turns out malformed: enough to
// show what came instead of a page (a proxy's HTML, an error's JSON), and
// little beside the pads a page in flight holds (a 50-pad page is about
// 60 KB). The error's message comes from the stream itself.
const maxPageErrorBody = 1 << 10

// APIError is a definite answer from the service that was not a success: a
// non-2xx status, a 2xx whose body status was not "OK", or a 2xx body that
// could not be decoded. It never holds the API key, headers or the query
// string.
type APIError struct {
	// StatusCode is the HTTP status code.
	StatusCode int
	// Status is the body's "status" field ("ERROR" from the service), or
	// "" when the body had none.
	Status string
	// Message is the service's message, or a description of what was wrong
	// with the response.
	Message string
	// Code is the body's "code" field (such as "Unauthorized"), or "" when
	// the body had none.
	Code string
	// Method and Path name the request; Path is the API path, without the
	// base URL's prefix or the query.
	Method, Path string
	// RetryAfter is the wait the service asked for in Retry-After, or 0.
	RetryAfter time.Duration
	// Attempts is how many times the request was sent.
	Attempts int
	// Body is the start of the response body, at most 64 KiB. It prints
	// as text.
	Body Snippet

	outcomeUnknown bool
	quota          bool // the request spends the pad quota: a 429 is ErrOverQuota
	err            error
}

// Snippet is the start of a response body, kept in an APIError. It is a
// []byte that prints as text with fmt (%v, %s, %+v of the APIError), not
// as a list of numbers.
type Snippet []byte

// String returns the bytes as text.
func (s Snippet) String() string { return string(s) }

// Format prints the snippet as text for every verb but %x and %X, which
// print hex as for a []byte.
func (s Snippet) Format(f fmt.State, verb rune) {
	switch verb {
	case 'x', 'X':
		fmt.Fprintf(f, fmt.FormatString(f, verb), []byte(s))
	case 'q':
		fmt.Fprintf(f, "%q", string(s))
	default:
		_, _ = f.Write(s)
	}
}

// Error reads like "padapi: POST /api/pads: 429: Over quota". For a create
// whose outcome is unknown it ends in ": outcome unknown".
func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	s := fmt.Sprintf("padapi: %s %s: %d: %s", e.Method, e.Path, e.StatusCode, msg)
	if e.outcomeUnknown {
		s += ": " + ErrOutcomeUnknown.Error()
	}
	return s
}

// Is matches the sentinel that the status code stands for, and
// ErrOutcomeUnknown for a create whose answer did not settle the outcome. A
// 429 is ErrOverQuota on a pad create and ErrRateLimited on anything else.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrOutcomeUnknown:
		return e.outcomeUnknown
	case ErrBadRequest:
		return e.StatusCode == http.StatusBadRequest
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrOverQuota:
		return e.StatusCode == http.StatusTooManyRequests && e.quota
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests && !e.quota
	case ErrServer:
		return e.StatusCode >= 500 && e.StatusCode <= 599
	}
	return false
}

// Unwrap returns the decoding or reading error behind the APIError, if any.
func (e *APIError) Unwrap() error { return e.err }

// errorFromBody builds the APIError for a non-2xx answer from the start of
// its body, with the key scrubbed from the decoded fields and the bytes.
// Bodies that are not the service's JSON (a proxy's HTML page, an empty
// body) still give the status code, with the status text as message.
func errorFromBody(resp *http.Response, snippet []byte, k *credential) *APIError {
	e := &APIError{StatusCode: resp.StatusCode}
	e.RetryAfter, _ = retrypolicy.RetryAfter(resp)
	var w struct {
		Status  string `json:"status"`
		Message string `json:"message"`
		Code    token  `json:"code"`
	}
	if unmarshal(snippet, &w) == nil {
		// Scrubbed before they are cut, so that no part of a key cut
		// at the end survives.
		e.Status = clip(k.scrubText(w.Status), maxErrorBody)
		e.Message = clip(k.scrubText(w.Message), maxErrorBody)
		e.Code = clip(k.scrubText(string(w.Code)), maxErrorBody)
	}
	e.Body = clipBytes(k.scrubBody(snippet))
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400 && e.Message == "":
		e.Message = "redirect not followed"
	case resp.StatusCode < 200:
		e.Message = "unexpected informational answer (a protocol switch or upgrade), not an API answer"
	}
	return e
}

// quoteShort shows a value in an error without repeating a huge input
// (the module's one helper for it, jsonerr.Short).
var quoteShort = jsonerr.Short

// clip cuts s to at most n bytes, on a rune boundary: a field a 2xx body
// carries into an error is otherwise only bounded by the body's cap.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

// clipBytes cuts a body snippet to at most maxErrorBody bytes.
func clipBytes(b []byte) []byte {
	if len(b) > maxErrorBody {
		return b[:maxErrorBody]
	}
	return b
}

// decodeFailure describes why data did not decode (err, from the codec),
// with the key scrubbed before any value is quoted: the codec quotes a
// value cut at 64 bytes, and a key that the cut crosses is no longer whole.
// When data holds the key, again decodes it once more with the key
// replaced, which keeps the JSON's shape: the codec finds the same fault,
// and its error, which becomes the APIError's cause, quotes no part of the
// key.
func decodeFailure(k *credential, err error, data []byte, again func([]byte) error) (msg string, cause error) {
	if clean := k.scrubBody(data); !bytes.Equal(clean, data) {
		if err2 := again(clean); err2 != nil {
			err, data = err2, clean
		}
	}
	return jsonerr.Describe(err, data), err
}
